#include <stdio.h>
int main(void) { puts("procmotion"); return 0; }
