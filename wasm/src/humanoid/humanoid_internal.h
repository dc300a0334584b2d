/* Read-only access to the humanoid candidate tables (for tests and tools). */
#ifndef PROCMOTION_HUMANOID_INTERNAL_H
#define PROCMOTION_HUMANOID_INTERNAL_H

#include "procmotion/humanoid.h"

/* Number of candidates (left-side form for sided bones). */
uint32_t pmi_humanoid_candidate_count(void);
/* Candidate i in priority order: its table, its (left) bone and its normalised name. */
const char *pmi_humanoid_candidate(uint32_t i, pm_humanoid_naming *naming, pm_humanoid_bone *bone);

#endif
