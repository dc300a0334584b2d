// The page's labels in five languages, from one table. Pure data + a few functions (no DOM at
// import time), so a node test can check that every key has every language.
//
//   t('play')                      -> the label in the current language
//   t('err.model', { detail })     -> '{detail}' placeholders filled in
//   applyI18n(root)                -> fills [data-i18n], [data-i18n-title], [data-i18n-placeholder]
//
// A capability that joins the page (groove, tracing, keypoints) adds its rows here.

export const LANGUAGES = [
  { id: 'en', name: 'English' },
  { id: 'ja', name: '日本語' },
  { id: 'zh-CN', name: '简体中文' },
  { id: 'zh-TW', name: '繁體中文' },
  { id: 'ko', name: '한국어' },
];

// key: [en, ja, zh-CN, zh-TW, ko]
const ROWS = {
  'app.subtitle': ['Procedural MMD motion, generated in WebAssembly',
    'WebAssemblyで生成するMMDプロシージャルモーション',
    '在 WebAssembly 中生成的 MMD 程序化动作',
    '在 WebAssembly 中產生的 MMD 程序化動作',
    'WebAssembly로 생성하는 MMD 절차적 모션'],
  'lang': ['Language', '言語', '语言', '語言', '언어'],
  'loading': ['Loading…', '読み込み中…', '加载中…', '載入中…', '불러오는 중…'],

  // sections
  'sec.mode': ['Mode', 'モード', '模式', '模式', '모드'],
  'sec.tempo': ['Tempo', 'テンポ', '节拍', '節拍', '템포'],
  'sec.params': ['Parameters', 'パラメータ', '参数', '參數', '매개변수'],
  'sec.files': ['Model and motion', 'モデルとモーション', '模型与动作', '模型與動作', '모델과 모션'],
  'sec.info': ['Motion', 'モーション', '动作', '動作', '모션'],
  'sec.music': ['Music', '音楽', '音乐', '音樂', '음악'],
  'sec.keypoints': ['Keypoints', 'キーポイント', '关键点', '關鍵點', '키포인트'],

  // modes
  'mode.catwalk': ['Catwalk', 'キャットウォーク', '猫步', '貓步', '캣워크'],
  'mode.idle': ['Idle', '待機', '待机', '待機', '대기'],
  'mode.dance': ['Dance', 'ダンス', '跳舞', '跳舞', '댄스'],
  'mode.vmd': ['Loaded motion', '読み込んだモーション', '已载入的动作', '已載入的動作', '불러온 모션'],
  'mode.groove': ['Groove', 'グルーヴ', '律动', '律動', '그루브'],
  'mode.tracing': ['Tracing', 'トレース', '轨迹', '軌跡', '트레이싱'],
  'mode.vmd.none': ['Load a VMD file first (button below or drag and drop).',
    '先にVMDファイルを読み込んでください（下のボタンかドラッグ＆ドロップ）。',
    '请先载入 VMD 文件（下方按钮或拖放）。',
    '請先載入 VMD 檔案（下方按鈕或拖放）。',
    '먼저 VMD 파일을 불러오세요 (아래 버튼 또는 끌어다 놓기).'],
  'mode.vmd.playing': ['Playing {name}', '{name} を再生中', '正在播放 {name}', '正在播放 {name}', '{name} 재생 중'],
  'mode.vmd.retargeted': ['{name} ({format}, {naming} names) on this model: {bones} bones, planted feet slide at most {slide}',
    '{name}（{format}、{naming} の名前）をこのモデルに: {bones} ボーン、接地した足の滑り最大 {slide}',
    '{name}（{format}，{naming} 命名）用于此模型：{bones} 个骨骼，着地脚滑动最多 {slide}',
    '{name}（{format}，{naming} 命名）用於此模型：{bones} 個骨骼，著地腳滑動最多 {slide}',
    '{name} ({format}, {naming} 이름)을 이 모델에: 본 {bones}개, 디딘 발 미끄러짐 최대 {slide}'],

  // tempo
  'bpm': ['BPM', 'BPM', 'BPM', 'BPM', 'BPM'],
  'bpm.tap': ['Tap', 'タップ', '敲击', '敲擊', '탭'],
  'bpm.tap.title': ['Tap on the beat four times or more to set the BPM',
    '拍に合わせて4回以上タップするとBPMが決まります',
    '跟着节拍敲击四次以上来设定 BPM',
    '跟著節拍敲擊四次以上來設定 BPM',
    '박자에 맞춰 네 번 이상 탭하면 BPM이 설정됩니다'],
  'bpm.offset': ['Offset (s)', 'オフセット（秒）', '偏移（秒）', '偏移（秒）', '오프셋 (초)'],
  'bpm.offset.title': ['The time of beat 1 in the song, in seconds (filled in from the music or from taps while it plays)',
    '曲の1拍目の時刻（秒）。音楽から、または再生中のタップから入ります',
    '歌曲第 1 拍的时间（秒），由音乐或播放时的敲击填入',
    '歌曲第 1 拍的時間（秒），由音樂或播放時的敲擊填入',
    '노래의 첫 박 시각(초). 음악이나 재생 중 탭으로 채워집니다'],
  'bpm.none': ['No BPM (walk by speed)', 'BPMなし（速度で歩く）', '无 BPM（按速度行走）', '無 BPM（按速度行走）', 'BPM 없음 (속도로 걷기)'],

  // music
  'music.file': ['Audio file…', '音声ファイル…', '音频文件…', '音訊檔案…', '오디오 파일…'],
  'music.file.title': ['A song (WAV, MP3, OGG, FLAC, M4A): it plays, and its tempo drives the motion',
    '曲（WAV・MP3・OGG・FLAC・M4A）。再生され、そのテンポでモーションが動きます',
    '一首歌（WAV、MP3、OGG、FLAC、M4A）：播放它，动作跟随它的节拍',
    '一首歌（WAV、MP3、OGG、FLAC、M4A）：播放它，動作跟隨它的節拍',
    '노래 (WAV, MP3, OGG, FLAC, M4A): 재생되고 그 템포로 모션이 움직입니다'],
  'music.play': ['Play the song', '曲を再生', '播放歌曲', '播放歌曲', '노래 재생'],
  'music.pause': ['Pause the song', '曲を一時停止', '暂停歌曲', '暫停歌曲', '노래 일시 정지'],
  'music.seek': ['Position in the song', '曲の再生位置', '歌曲中的位置', '歌曲中的位置', '노래의 위치'],
  'music.use': ["Use the song's tempo", '曲のテンポを使う', '使用歌曲的节拍', '使用歌曲的節拍', '노래의 템포 사용'],
  'music.remove': ['Remove the song', '曲を外す', '移除歌曲', '移除歌曲', '노래 제거'],
  'music.hint': ['Choose or drop a song: its beats are detected and its tempo drives the motion.',
    '曲を選ぶかドロップしてください。拍を検出し、そのテンポでモーションが動きます。',
    '选择或拖放一首歌：检测它的节拍，动作跟随它的节拍速度。',
    '選擇或拖放一首歌：偵測它的節拍，動作跟隨它的節拍速度。',
    '노래를 고르거나 놓으세요: 박자를 찾아 그 템포로 모션이 움직입니다.'],
  'music.reading': ['Reading {name}…', '{name} を読み込み中…', '正在读取 {name}…', '正在讀取 {name}…', '{name} 읽는 중…'],
  'music.analysing': ['Finding the beats of {name}…', '{name} の拍を検出中…', '正在检测 {name} 的节拍…', '正在偵測 {name} 的節拍…',
    '{name}의 박자를 찾는 중…'],
  'music.empty': ['the file holds no samples', 'ファイルにサンプルがありません', '文件中没有采样', '檔案中沒有取樣', '파일에 샘플이 없습니다'],
  'music.noBeats': ['{name}: no beats found (the tempo stays as it was).', '{name}: 拍が見つかりません（テンポはそのままです）。',
    '{name}：没有找到节拍（节拍速度保持不变）。', '{name}：沒有找到節拍（節拍速度保持不變）。', '{name}: 박자를 찾지 못했습니다 (템포는 그대로입니다).'],
  'music.detected': ['{name}: {bpm} BPM, {meter}, first beat at {offset} s, confidence {confidence} ({ms} ms).',
    '{name}: {bpm} BPM、{meter}、最初の拍 {offset} 秒、信頼度 {confidence}（{ms} ms）。',
    '{name}：{bpm} BPM，{meter}，第一拍在 {offset} 秒，置信度 {confidence}（{ms} 毫秒）。',
    '{name}：{bpm} BPM，{meter}，第一拍在 {offset} 秒，信賴度 {confidence}（{ms} 毫秒）。',
    '{name}: {bpm} BPM, {meter}, 첫 박 {offset}초, 신뢰도 {confidence} ({ms} ms).'],
  'music.folded': ['The motion follows it at {bpm} BPM (an octave inside 60 to 200).', 'モーションは {bpm} BPM で追従します（60〜200 に収まるオクターブ）。',
    '动作以 {bpm} BPM 跟随（60 到 200 之内的八度）。', '動作以 {bpm} BPM 跟隨（60 到 200 之內的八度）。', '모션은 {bpm} BPM으로 따라갑니다 (60~200 안의 옥타브).'],
  'music.lane.title': ['The song around the playback position: onset strength, beats (downbeats green, bars numbered); the whole song below. Click or drag to seek.',
    '再生位置付近の曲：オンセット強度と拍（小節頭は緑、小節番号付き）。下は曲全体。クリックかドラッグで移動。',
    '播放位置附近的歌曲：起音强度与节拍（强拍为绿色并标小节号）；下方为整首歌。点击或拖动以跳转。',
    '播放位置附近的歌曲：起音強度與節拍（強拍為綠色並標小節號）；下方為整首歌。點擊或拖曳以跳轉。',
    '재생 위치 주변의 노래: 온셋 강도와 박자 (마디 첫 박은 초록색, 마디 번호), 아래는 노래 전체. 클릭하거나 드래그해 이동.'],

  // catwalk parameters
  'p.speed': ['Speed (no BPM)', '速度（BPMなし）', '速度（无 BPM）', '速度（無 BPM）', '속도 (BPM 없음)'],
  'p.hipSway': ['Hip sway', '腰の揺れ', '胯部摆动', '胯部擺動', '엉덩이 흔들림'],

  // idle
  'i.intensity': ['Intensity', '強さ', '强度', '強度', '강도'],
  'i.speed': ['Speed', '速さ', '速度', '速度', '속도'],
  'i.bodySway': ['Body sway', '体の揺れ', '身体摇摆', '身體搖擺', '몸 흔들림'],
  'i.headMovement': ['Head movement', '頭の動き', '头部动作', '頭部動作', '머리 움직임'],
  'i.gestureFrequency': ['Gestures', 'しぐさ', '小动作', '小動作', '제스처'],
  'i.duration': ['Loop length', 'ループの長さ', '循环长度', '循環長度', '루프 길이'],
  'i.seed': ['Seed', 'シード', '种子', '種子', '시드'],

  // dance
  'd.style': ['Style', 'スタイル', '风格', '風格', '스타일'],
  'd.style.pop': ['Pop', 'ポップ', '流行', '流行', '팝'],
  'd.style.hiphop': ['Hip-hop', 'ヒップホップ', '嘻哈', '嘻哈', '힙합'],
  'd.style.idol': ['Idol', 'アイドル', '偶像', '偶像', '아이돌'],
  'd.energy': ['Energy', 'エネルギー', '能量', '能量', '에너지'],
  'd.variety': ['Variety', '変化', '变化', '變化', '다양성'],
  'd.arms': ['Arms', '腕', '手臂', '手臂', '팔'],
  'd.legs': ['Steps', 'ステップ', '步伐', '步伐', '스텝'],
  'd.body': ['Body', '体', '身体', '身體', '몸'],
  'd.seed': ['Seed', 'シード', '种子', '種子', '시드'],

  // the whole page's options: the lifelike layer, physics, blended mode changes
  'opt.lifelike': ['Lifelike (blinks, breath, gaze)', 'リアルな動き(まばたき・呼吸・視線)', '生动(眨眼、呼吸、视线)', '生動(眨眼、呼吸、視線)', '생동감(깜박임, 호흡, 시선)'],
  'opt.physics': ['Physics (hair, skirt)', '物理(髪・スカート)', '物理(头发、裙子)', '物理(頭髮、裙子)', '물리(머리카락, 치마)'],
  'opt.blend': ['Blend mode changes', 'モード切替をなめらかに', '平滑切换模式', '平滑切換模式', '모드 전환 부드럽게'],
  'p.stepHeight': ['Step height', '足の上げ幅', '抬腿高度', '抬腿高度', '발 높이'],
  'p.stepCadence': ['Step cadence', '歩調', '步频', '步頻', '걸음 박자'],
  'p.stepCadence.beat': ['One step per beat', '1拍に1歩', '每拍一步', '每拍一步', '한 박에 한 걸음'],
  'p.stepCadence.2beat': ['One step per two beats', '2拍に1歩', '每两拍一步', '每兩拍一步', '두 박에 한 걸음'],
  'p.armPose': ['Arms', '腕', '手臂', '手臂', '팔'],
  'p.armPose.swing': ['Swing', '振る', '摆动', '擺動', '흔들기'],
  'p.armPose.posed': ['Posed', 'ポーズ', '摆姿势', '擺姿勢', '포즈'],
  'p.armSwing': ['Arm swing', '腕の振り', '手臂摆幅', '手臂擺幅', '팔 흔들기'],
  'p.poseShoulder': ['Posed arm angle', 'ポーズ時の腕の角度', '姿势手臂角度', '姿勢手臂角度', '포즈 팔 각도'],
  'p.poseElbow': ['Posed elbow bend', 'ポーズ時の肘の曲げ', '姿势肘部弯曲', '姿勢肘部彎曲', '포즈 팔꿈치 굽힘'],
  'p.stride': ['Stride', '歩幅', '步幅', '步幅', '보폭'],
  'p.crossStep': ['Cross-step', 'クロスステップ', '交叉步', '交叉步', '크로스 스텝'],
  'p.hipTwist': ['Hip twist', '腰のひねり', '胯部扭转', '胯部扭轉', '엉덩이 비틀기'],
  'p.pelvisDrop': ['Pelvis drop', '骨盤の傾き', '骨盆下沉', '骨盆下沉', '골반 기울기'],
  'p.torsoTwist': ['Torso twist (− with the hips, + against)', '上半身のひねり（−腰と同じ、+逆）', '躯干扭转（−随胯，+反向）', '軀幹扭轉（−隨胯，+反向）', '상체 비틀기 (− 골반과 같이, + 반대)'],
  'p.torsoSway': ['Torso counter-sway', '上半身の逆揺れ', '躯干反向摆动', '軀幹反向擺動', '상체 반대 흔들기'],
  'p.lean': ['Lean', '前傾', '前倾', '前傾', '기울기'],
  'p.headFollow': ['Head follow', '頭の追従', '头部跟随', '頭部跟隨', '머리 따라가기'],
  'p.elbowBend': ['Elbow bend', 'ひじの曲げ', '肘部弯曲', '肘部彎曲', '팔꿈치 굽힘'],
  'p.style': ['Style', 'スタイル', '风格', '風格', '스타일'],
  'p.style.runway': ['Runway', 'ランウェイ', 'T台', '伸展台', '런웨이'],
  'p.style.feminine': ['Feminine', 'フェミニン', '女性化', '女性化', '여성스러운'],
  'p.style.casual': ['Casual', 'カジュアル', '休闲', '休閒', '캐주얼'],
  'p.style.strut': ['Strut', 'ストラット', '阔步', '闊步', '스트럿'],
  'p.toeOff': ['Toe-off', 'つま先の蹴り出し', '脚尖蹬离', '腳尖蹬離', '발끝 차기'],
  'p.heelStrike': ['Heel strike', 'かかと着地', '脚跟着地', '腳跟著地', '뒤꿈치 착지'],
  'p.bob': ['Body bob', '上下動', '身体起伏', '身體起伏', '몸 상하 움직임'],
  'p.stanceKnee': ['Stance knee bend', '支持脚の膝の曲げ', '支撑腿屈膝', '支撐腿屈膝', '디딤발 무릎 굽힘'],
  'p.blink': ['Blinks', 'まばたき', '眨眼', '眨眼', '눈 깜빡임'],
  'p.expression': ['Smile', '笑顔', '微笑', '微笑', '미소'],
  'p.positionTolerance': ['Key fit tolerance (position)', 'キー近似の許容誤差（位置）', '关键帧拟合容差（位置）',
    '關鍵幀擬合容差（位置）', '키 맞춤 허용 오차 (위치)'],
  'p.rotationTolerance': ['Key fit tolerance (rotation)', 'キー近似の許容誤差（回転）', '关键帧拟合容差（旋转）',
    '關鍵幀擬合容差（旋轉）', '키 맞춤 허용 오차 (회전)'],
  'p.seed': ['Blink timing seed', 'まばたきのシード', '眨眼时机种子', '眨眼時機種子', '깜빡임 시드'],
  'p.traverse': ['Walk along the runway', 'ランウェイを歩く', '沿 T 台行走', '沿伸展台行走', '런웨이 따라 걷기'],
  'p.uTurn': ['Turn around at the ends', '端でターン', '尽头转身', '盡頭轉身', '끝에서 돌아서기'],
  'p.traverseDistance': ['Runway length', 'ランウェイの長さ', 'T 台长度', '伸展台長度', '런웨이 길이'],
  'p.auto': ['auto', '自動', '自动', '自動', '자동'],
  'p.group.style': ['Walk style', '歩き方の調整', '步态风格', '步態風格', '걸음 스타일'],
  'p.group.advanced': ['Advanced', '詳細設定', '高级', '進階', '고급'],
  'p.default': ['default: {value}', '既定値: {value}', '默认值：{value}', '預設值：{value}', '기본값: {value}'],
  'p.reset': ['Reset to default', '既定値に戻す', '恢复默认', '恢復預設', '기본값으로 되돌리기'],
  'p.resetAll': ['Reset all', 'すべて戻す', '全部恢复', '全部恢復', '모두 되돌리기'],

  // groove (modes/groove.js, docs/groove.md)
  'g.base': ['Groove on', 'グルーヴの土台', '律动叠加于', '律動疊加於', '그루브 바탕'],
  'g.base.rest': ['Standing pose', '直立ポーズ', '站立姿势', '站立姿勢', '선 자세'],
  'g.base.catwalk': ['Catwalk', 'キャットウォーク', '猫步', '貓步', '캣워크'],
  'g.base.vmd': ['Loaded VMD', '読み込んだVMD', '已载入的 VMD', '已載入的 VMD', '불러온 VMD'],
  'g.squat': ['Squat bounce (legs)', '屈伸バウンス（脚）', '蹲弹律动（腿）', '蹲彈律動（腿）', '스쿼트 바운스 (다리)'],
  'g.squat.enabled': ['Bounce on', 'バウンスする', '启用蹲弹', '啟用蹲彈', '바운스 켜기'],
  'g.squat.vertical': ['Depth', '沈む深さ', '下沉幅度', '下沉幅度', '내려가는 깊이'],
  'g.squat.lateral': ['Side sway', '左右の揺れ', '侧向摆动', '側向擺動', '좌우 흔들림'],
  'g.squat.freq': ['Cycles per beat', '1拍あたりの回数', '每拍次数', '每拍次數', '박자당 횟수'],
  'g.squat.phase': ['Phase delay', '位相の遅れ', '相位延迟', '相位延遲', '위상 지연'],
  'g.squat.wave': ['Wave (depth)', '波形（沈み）', '波形（下沉）', '波形（下沉）', '파형 (깊이)'],
  'g.squat.wave.bounce': ['bounce', 'バウンス', '弹跳', '彈跳', '바운스'],
  'g.squat.wave.sine': ['sine', 'サイン', '正弦', '正弦', '사인'],
  'g.field.amp': ['Amplitude', '振幅', '幅度', '幅度', '진폭'],
  'g.field.freq': ['Cycles per beat', '1拍あたりの回数', '每拍次数', '每拍次數', '박자당 횟수'],
  'g.field.phase': ['Phase delay', '位相の遅れ', '相位延迟', '相位延遲', '위상 지연'],
  'g.field.wave': ['Wave', '波形', '波形', '波形', '파형'],
  'g.field.wave.bounce': ['bounce', 'バウンス', '弹跳', '彈跳', '바운스'],
  'g.field.wave.sine': ['sine', 'サイン', '正弦', '正弦', '사인'],
  'g.field.axis': ['Axis', '回転軸', '旋转轴', '旋轉軸', '회전축'],
  'g.field.axis.x': ['x (forward / back)', 'x（前後）', 'x（前后）', 'x（前後）', 'x (앞뒤)'],
  'g.field.axis.y': ['y (twist)', 'y（ひねり）', 'y（扭转）', 'y（扭轉）', 'y (비틀기)'],
  'g.field.axis.z': ['z (side to side)', 'z（左右）', 'z（左右）', 'z（左右）', 'z (좌우)'],
  'g.joint.pelvis': ['Pelvis', '下半身', '骨盆', '骨盆', '골반'],
  'g.joint.spine': ['Spine', '上半身', '脊椎', '脊椎', '척추'],
  'g.joint.chest': ['Chest', '上半身2', '胸部', '胸部', '가슴'],
  'g.joint.upperChest': ['Upper chest', '上半身3', '上胸部', '上胸部', '윗가슴'],
  'g.joint.neck': ['Neck', '首', '颈部', '頸部', '목'],
  'g.joint.head': ['Head', '頭', '头部', '頭部', '머리'],
  'g.joint.leftShoulder': ['Left shoulder', '左肩', '左肩', '左肩', '왼쪽 어깨'],
  'g.joint.rightShoulder': ['Right shoulder', '右肩', '右肩', '右肩', '오른쪽 어깨'],
  'g.joint.leftArm': ['Left arm', '左腕', '左臂', '左臂', '왼팔'],
  'g.joint.rightArm': ['Right arm', '右腕', '右臂', '右臂', '오른팔'],
  'g.joint.leftElbow': ['Left elbow', '左ひじ', '左肘', '左肘', '왼쪽 팔꿈치'],
  'g.joint.rightElbow': ['Right elbow', '右ひじ', '右肘', '右肘', '오른쪽 팔꿈치'],
  'g.resetJoint': ['Reset this group', 'このグループを戻す', '恢复本组', '恢復本組', '이 그룹 되돌리기'],
  // keypoints overlay
  'kp.toggle': ['Show the MediaPipe Pose skeleton', 'MediaPipe Poseの骨格を表示', '显示 MediaPipe Pose 骨架',
    '顯示 MediaPipe Pose 骨架', 'MediaPipe Pose 골격 표시'],
  'kp.toggle.title': ['The 33 MediaPipe Pose keypoints and ten joint angles computed from the playing motion',
    '再生中のモーションから計算したMediaPipe Poseの33点と10の関節角度',
    '由正在播放的动作计算出的 MediaPipe Pose 33 个关键点和十个关节角度',
    '由正在播放的動作計算出的 MediaPipe Pose 33 個關鍵點和十個關節角度',
    '재생 중인 모션에서 계산한 MediaPipe Pose 33개 키포인트와 10개 관절 각도'],
  'kp.title': ['MediaPipe Pose · 33 points', 'MediaPipe Pose・33点', 'MediaPipe Pose · 33 点', 'MediaPipe Pose · 33 點',
    'MediaPipe Pose · 33점'],
  'score.file': ['Score a performance…', 'パフォーマンスを採点…', '为表演评分…', '為表演評分…', '퍼포먼스 채점…'],
  'score.file.title': ['A dancer\'s keypoints (MediaPipe JSON, NDJSON, .kpb) or a motion file, scored against the motion that is playing',
    'ダンサーのキーポイント（MediaPipe JSON・NDJSON・.kpb）またはモーションを、再生中のモーションと比べて採点',
    '舞者的关键点（MediaPipe JSON、NDJSON、.kpb）或动作文件，与正在播放的动作比较评分',
    '舞者的關鍵點（MediaPipe JSON、NDJSON、.kpb）或動作檔案，與正在播放的動作比較評分',
    '댄서의 키포인트(MediaPipe JSON, NDJSON, .kpb) 또는 모션 파일을 재생 중인 모션과 비교해 채점'],
  'score.result': ['{score} / 100 for {name}, from {offset} s into it', '{name}: {score} / 100（{offset} 秒目から）',
    '{name}：{score} / 100（从第 {offset} 秒起）', '{name}：{score} / 100（從第 {offset} 秒起）', '{name}: {score} / 100 ({offset}초부터)'],
  'score.late': ['late by {s} s', '{s} 秒遅れ', '慢 {s} 秒', '慢 {s} 秒', '{s}초 늦음'],
  'score.early': ['early by {s} s', '{s} 秒早い', '快 {s} 秒', '快 {s} 秒', '{s}초 빠름'],
  'score.onTime': ['on time', 'ぴったり', '准时', '準時', '정확'],
  'score.noMotion': ['no motion is playing', '再生中のモーションがありません', '没有正在播放的动作', '沒有正在播放的動作', '재생 중인 모션이 없습니다'],
  'score.part.left_arm': ['Left arm', '左腕', '左臂', '左臂', '왼팔'],
  'score.part.right_arm': ['Right arm', '右腕', '右臂', '右臂', '오른팔'],
  'score.part.left_leg': ['Left leg', '左脚', '左腿', '左腿', '왼다리'],
  'score.part.right_leg': ['Right leg', '右脚', '右腿', '右腿', '오른다리'],
  'score.part.torso': ['Torso and head', '胴体と頭', '躯干和头', '軀幹和頭', '몸통과 머리'],
  'kp.left': ['left', '左', '左', '左', '왼쪽'],
  'kp.right': ['right', '右', '右', '右', '오른쪽'],
  'kp.empty': ['No keypoints', 'キーポイントなし', '没有关键点', '沒有關鍵點', '키포인트 없음'],
  'kp.source': ['grey: the source', 'グレー: 元のモーション', '灰色：源动作', '灰色：來源動作', '회색: 원본'],
  'kp.angle.shoulder': ['Shoulder', '肩', '肩', '肩', '어깨'],
  'kp.angle.elbow': ['Elbow', '肘', '肘', '肘', '팔꿈치'],
  'kp.angle.hip': ['Hip', '股関節', '髋', '髖', '고관절'],
  'kp.angle.knee': ['Knee', '膝', '膝', '膝', '무릎'],
  'kp.angle.neck': ['Neck', '首', '颈', '頸', '목'],
  'kp.angle.spine': ['Spine', '背骨', '脊柱', '脊柱', '척추'],

  // tracing (modes/tracing.js, docs/tracing.md)
  'trace.limb': ['Limb', '動かす手足', '肢体', '肢體', '팔다리'],
  'trace.limb.leftHand': ['Left hand', '左手', '左手', '左手', '왼손'],
  'trace.limb.rightHand': ['Right hand', '右手', '右手', '右手', '오른손'],
  'trace.limb.leftFoot': ['Left foot', '左足', '左脚', '左腳', '왼발'],
  'trace.limb.rightFoot': ['Right foot', '右足', '右脚', '右腳', '오른발'],
  'trace.hint': ['Drag the orange sphere in the view: the limb reaches for it. "Add point" stores where it is; the points make the path.',
    'ビューのオレンジの球をドラッグすると手足がそこへ伸びます。「点を追加」でその位置を記録し、点をつないだものが軌道になります。',
    '在视图中拖动橙色球体，肢体会伸向它。“添加点”记录它的位置，这些点连成轨迹。',
    '在視圖中拖曳橘色球體，肢體會伸向它。「新增點」記錄它的位置，這些點連成軌跡。',
    '뷰에서 주황색 구를 드래그하면 팔다리가 그쪽으로 뻗습니다. "점 추가"로 위치를 기록하면 점들이 궤적이 됩니다.'],
  'trace.add': ['Add point', '点を追加', '添加点', '新增點', '점 추가'],
  'trace.removeLast': ['Remove last', '最後の点を削除', '删除最后一点', '刪除最後一點', '마지막 점 삭제'],
  'trace.clear': ['Clear', 'クリア', '清除', '清除', '지우기'],
  'trace.mode': ['Path', '軌道の形', '轨迹形状', '軌跡形狀', '궤적 모양'],
  'trace.mode.line': ['Line (straight segments)', '直線（折れ線）', '直线（折线）', '直線（折線）', '직선 (꺾은선)'],
  'trace.mode.curve': ['Curve (through the points)', '曲線（点を通る）', '曲线（经过各点）', '曲線（經過各點）', '곡선 (점을 지나는)'],
  'trace.pole': ['Elbow / knee direction', 'ひじ・ひざの向き', '肘 / 膝的朝向', '肘 / 膝的朝向', '팔꿈치 / 무릎 방향'],
  'trace.progress': ['Progress along the path', '軌道上の位置', '沿轨迹的进度', '沿軌跡的進度', '궤적 위 진행도'],
  'trace.count': ['Keyframes', 'キーフレーム数', '关键帧数', '關鍵幀數', '키프레임 수'],
  'trace.beatStep': ['Beats between keyframes', 'キーフレームの間隔', '关键帧间隔', '關鍵幀間隔', '키프레임 간격'],
  'trace.beatStep.0.5': ['half a beat', '半拍', '半拍', '半拍', '반 박'],
  'trace.beatStep.1': ['1 beat', '1拍', '1 拍', '1 拍', '1박'],
  'trace.beatStep.2': ['2 beats', '2拍', '2 拍', '2 拍', '2박'],
  'trace.easing': ['Easing', 'イージング', '缓动', '緩動', '이징'],
  'trace.easing.linear': ['Even speed', '等速', '匀速', '等速', '일정한 속도'],
  'trace.easing.ease-in-out': ['Stop and go (tutting)', '止めて動く（タッティング）', '停顿再移动（Tutting）', '停頓再移動（Tutting）',
    '멈췄다 움직이기 (터팅)'],
  'trace.generate': ['Generate keyframes', 'キーフレームを生成', '生成关键帧', '產生關鍵幀', '키프레임 생성'],
  'trace.play': ['Play keyframes', 'キーフレームを再生', '播放关键帧', '播放關鍵幀', '키프레임 재생'],
  'trace.edit': ['Back to editing', '編集に戻る', '返回编辑', '返回編輯', '편집으로 돌아가기'],
  'trace.status.none': ['{limb}: no points yet.', '{limb}: まだ点がありません。', '{limb}：还没有点。', '{limb}：還沒有點。',
    '{limb}: 아직 점이 없습니다.'],
  'trace.status': ['{limb}: {points} points, path {length} units long.', '{limb}: {points} 点、軌道の長さ {length}。',
    '{limb}：{points} 个点，轨迹长 {length} 单位。', '{limb}：{points} 個點，軌跡長 {length} 單位。',
    '{limb}: 점 {points}개, 궤적 길이 {length}.'],
  'trace.status.playing': ['Playing {keyframes} keyframes over {beats} beats, a beat\'s hold, a beat back to the start.',
    '{keyframes} 個のキーフレームを {beats} 拍で再生し、1拍止まって、1拍で最初に戻ります。',
    '用 {beats} 拍播放 {keyframes} 个关键帧，停 1 拍，再用 1 拍回到起点。',
    '用 {beats} 拍播放 {keyframes} 個關鍵幀，停 1 拍，再用 1 拍回到起點。',
    '키프레임 {keyframes}개를 {beats}박 동안 재생하고 1박 멈춘 뒤 1박 동안 처음으로 돌아갑니다.'],

  // timeline
  'play': ['Play', '再生', '播放', '播放', '재생'],
  'pause': ['Pause', '一時停止', '暂停', '暫停', '일시 정지'],
  'loop': ['Loop', 'ループ', '循环', '循環', '반복'],
  'seek': ['Position in the motion', 'モーション内の位置', '动作中的位置', '動作中的位置', '모션 내 위치'],
  'time.beat': ['beat {beat} / {beats}', '拍 {beat} / {beats}', '第 {beat} / {beats} 拍', '第 {beat} / {beats} 拍', '박 {beat} / {beats}'],
  'time.frame': ['frame {frame} / {frames}', 'フレーム {frame} / {frames}', '帧 {frame} / {frames}', '幀 {frame} / {frames}', '프레임 {frame} / {frames}'],

  // curve view
  'curve.leftFoot': ['left foot height', '左足の高さ', '左脚高度', '左腳高度', '왼발 높이'],
  'curve.rightFoot': ['right foot height', '右足の高さ', '右脚高度', '右腳高度', '오른발 높이'],
  'curve.hipSway': ['hip sway', '腰の揺れ', '胯部摆动', '胯部擺動', '엉덩이 흔들림'],
  'curve.beats': ['beats', '拍', '节拍', '節拍', '박자'],
  'curve.leftFootPlanned': ['left foot planned', '左足（計画）', '左脚（计划）', '左腳（計畫）', '왼발 (계획)'],
  'curve.leftFootPlayed': ['left foot played', '左足（再生）', '左脚（播放）', '左腳（播放）', '왼발 (재생)'],
  'curve.rightFootPlanned': ['right foot planned', '右足（計画）', '右脚（计划）', '右腳（計畫）', '오른발 (계획)'],
  'curve.rightFootPlayed': ['right foot played', '右足（再生）', '右脚（播放）', '右腳（播放）', '오른발 (재생)'],

  // the report line over the curve view (docs/landing.md): measured on the loaded model
  'landing.feet': ['Feet as played on this model', 'このモデルで再生した足', '此模型上播放的双脚', '此模型上播放的雙腳', '이 모델에서 재생한 발'],
  'landing.traced': ['Traced limbs as played on this model', 'このモデルで再生したなぞった手足', '此模型上播放的描绘肢体',
    '此模型上播放的描繪肢體', '이 모델에서 재생한 따라 그린 팔다리'],
  'landing.line': ['{what}: max error {max} units ({maxCm} cm) · RMS {rms} units ({rmsCm} cm) · floor penetration {pen} units ({penCm} cm)',
    '{what}：最大誤差 {max} 単位（{maxCm} cm）・RMS {rms} 単位（{rmsCm} cm）・床へのめり込み {pen} 単位（{penCm} cm）',
    '{what}：最大误差 {max} 单位（{maxCm} cm）· RMS {rms} 单位（{rmsCm} cm）· 穿入地面 {pen} 单位（{penCm} cm）',
    '{what}：最大誤差 {max} 單位（{maxCm} cm）· RMS {rms} 單位（{rmsCm} cm）· 穿入地面 {pen} 單位（{penCm} cm）',
    '{what}: 최대 오차 {max} 단위 ({maxCm} cm) · RMS {rms} 단위 ({rmsCm} cm) · 바닥 관통 {pen} 단위 ({penCm} cm)'],
  'landing.title': ['Measured by playing the motion on the loaded model with the MMD-exact evaluator (what babylon-mmd shows; docs/landing.md). 1 unit = 8 cm.',
    '読み込んだモデルでモーションをMMD準拠の評価器で再生して測定（babylon-mmdの表示と同じ。docs/landing.md）。1単位 = 8 cm。',
    '在已载入的模型上用与 MMD 一致的求值器播放动作测得（即 babylon-mmd 的显示；docs/landing.md）。1 单位 = 8 cm。',
    '在已載入的模型上以與 MMD 一致的求值器播放動作測得（即 babylon-mmd 的顯示；docs/landing.md）。1 單位 = 8 cm。',
    '불러온 모델에서 MMD와 같은 평가기로 모션을 재생해 측정했습니다(babylon-mmd가 보여 주는 것과 같음, docs/landing.md). 1단위 = 8 cm.'],
  'curve.empty': ['This motion has no foot IK or centre keys to plot.',
    'このモーションには描画できる足IKやセンターのキーがありません。',
    '此动作没有可绘制的足 IK 或センター 关键帧。',
    '此動作沒有可繪製的足 IK 或センター 關鍵幀。',
    '이 모션에는 그릴 발 IK나 센터 키가 없습니다.'],

  // files
  'file.model': ['Model files…', 'モデルファイル…', '模型文件…', '模型檔案…', '모델 파일…'],
  'file.model.title': ['Pick a PMX or PMD together with its texture files', 'PMX/PMDとテクスチャファイルを一緒に選んでください',
    '同时选择 PMX 或 PMD 及其贴图文件', '同時選擇 PMX 或 PMD 及其貼圖檔案', 'PMX 또는 PMD와 텍스처 파일을 함께 선택하세요'],
  'file.modelFolder': ['Model folder…', 'モデルフォルダ…', '模型文件夹…', '模型資料夾…', '모델 폴더…'],
  'file.modelFolder.title': ['Pick the folder that holds the PMX and its textures', 'PMXとテクスチャが入ったフォルダを選んでください',
    '选择包含 PMX 及其贴图的文件夹', '選擇包含 PMX 及其貼圖的資料夾', 'PMX와 텍스처가 들어 있는 폴더를 선택하세요'],
  'file.vmd': ['Load motion…', 'モーションを読み込む…', '载入动作…', '載入動作…', '모션 불러오기…'],
  'file.vmd.title': ['A VMD, or a BVH, FBX, glTF/GLB or VRM Animation motion retargeted to the model',
    'VMD、またはモデルにリターゲットするBVH・FBX・glTF/GLB・VRMアニメーション',
    'VMD，或重定向到模型的 BVH、FBX、glTF/GLB、VRM 动画',
    'VMD，或重定向到模型的 BVH、FBX、glTF/GLB、VRM 動畫',
    'VMD 또는 모델에 리타깃하는 BVH, FBX, glTF/GLB, VRM 애니메이션'],
  'file.download': ['Download VMD', 'VMDをダウンロード', '下载 VMD', '下載 VMD', 'VMD 다운로드'],
  'file.downloadVrm': ['Download VRM', 'VRMをダウンロード', '下载 VRM', '下載 VRM', 'VRM 다운로드'],
  'file.downloadVrm.title': ['The loaded model as a VRM 1.0 file (humanoid, T-pose, textures), converted in the page',
    '読み込んだモデルをVRM 1.0ファイルに変換（ヒューマノイド・Tポーズ・テクスチャ、ページ内で変換）',
    '将载入的模型转换为 VRM 1.0 文件（人形骨骼、T 姿势、贴图，在页面内转换）',
    '將載入的模型轉換為 VRM 1.0 檔案（人形骨骼、T 姿勢、貼圖，在頁面內轉換）',
    '불러온 모델을 VRM 1.0 파일로 변환 (휴머노이드, T 포즈, 텍스처, 페이지 안에서 변환)'],
  'file.defaultModel': ['Back to the mannequin', 'マネキンに戻す', '换回人体模型', '換回人體模型', '마네킹으로 돌아가기'],
  'file.drop': ['Drop a PMX (with its texture folder), a motion (VMD, BVH, FBX, GLB, VRMA) or a song here',
    'PMX（テクスチャフォルダごと）、モーション（VMD・BVH・FBX・GLB・VRMA）、または曲をここにドロップ',
    '将 PMX（连同贴图文件夹）、动作（VMD、BVH、FBX、GLB、VRMA）或歌曲拖放到这里',
    '將 PMX（連同貼圖資料夾）、動作（VMD、BVH、FBX、GLB、VRMA）或歌曲拖放到這裡',
    'PMX(텍스처 폴더 포함), 모션(VMD, BVH, FBX, GLB, VRMA) 또는 노래를 여기에 놓으세요'],
  'file.hint': ['Or drag and drop files or a folder onto the page.',
    'ファイルやフォルダをページにドラッグ＆ドロップすることもできます。',
    '也可以把文件或文件夹拖放到页面上。',
    '也可以把檔案或資料夾拖放到頁面上。',
    '파일이나 폴더를 페이지에 끌어다 놓아도 됩니다.'],

  // info
  'info.model': ['Model', 'モデル', '模型', '模型', '모델'],
  'info.mannequin': ['built-in mannequin', '内蔵マネキン', '内置人体模型', '內建人體模型', '내장 마네킹'],
  'info.loop': ['Loop', 'ループ', '循环', '循環', '루프'],
  'info.loopValue': ['{frames} frames ({seconds} s)', '{frames} フレーム（{seconds} 秒）', '{frames} 帧（{seconds} 秒）', '{frames} 幀（{seconds} 秒）', '{frames} 프레임 ({seconds}초)'],
  'info.steps': ['Steps', '歩数', '步数', '步數', '걸음 수'],
  'info.fit': ['Key fit', 'キー近似', '关键帧拟合', '關鍵幀擬合', '키 맞춤'],
  'info.fitValue': ['within {pos} units, {rot}°', '誤差 {pos} 単位・{rot}° 以内', '误差 {pos} 单位、{rot}° 以内',
    '誤差 {pos} 單位、{rot}° 以內', '오차 {pos} 단위, {rot}° 이내'],
  'info.keys': ['Keys', 'キー数', '关键帧数', '關鍵幀數', '키 수'],
  'info.bones': ['Bones used', '使用ボーン', '使用的骨骼', '使用的骨骼', '사용한 본'],
  'info.missing': ['Missing bones', '見つからないボーン', '缺少的骨骼', '缺少的骨骼', '없는 본'],
  'info.keyframes': ['Keyframes', 'キーフレーム', '关键帧', '關鍵幀', '키프레임'],
  'info.keyframesValue': ['{count} ({limbs})', '{count}（{limbs}）', '{count}（{limbs}）', '{count}（{limbs}）', '{count} ({limbs})'],
  'info.none': ['none', 'なし', '无', '無', '없음'],
  'info.damaged': ['Names not in Shift-JIS (kept as stored)', 'Shift-JISでない名前（そのまま保持）', '非 Shift-JIS 名称（按原样保留）',
    '非 Shift-JIS 名稱（按原樣保留）', 'Shift-JIS가 아닌 이름(그대로 보존)'],
  'info.kpFrames': ['Keypoints', 'キーポイント', '关键点', '關鍵點', '키포인트'],
  'info.kpFramesValue': ['{frames} frames ({ms} ms)', '{frames} フレーム（{ms} ms）', '{frames} 帧（{ms} 毫秒）',
    '{frames} 幀（{ms} 毫秒）', '{frames} 프레임 ({ms} ms)'],
  'info.kpLegs': ['Leg drive', '足の駆動', '腿部驱动', '腿部驅動', '다리 구동'],
  'info.kpIgnored': ['Ignored bones', '無視したボーン', '忽略的骨骼', '忽略的骨骼', '무시한 본'],
  'info.kpSource': ['Against the source', '元との差', '与源动作相比', '與來源動作相比', '원본과 비교'],
  'info.kpSourceValue': ['angles within {mean} (mean cosine)', '角度の差 {mean}（コサイン平均）', '角度差 {mean}（余弦平均）',
    '角度差 {mean}（餘弦平均）', '각도 차 {mean} (코사인 평균)'],
  'info.kpSkeleton': ['Keypoint skeleton', 'キーポイントの骨格', '关键点骨架', '關鍵點骨架', '키포인트 골격'],
  'info.kpSkeletonStandard': ['MMD standard', 'MMD標準', 'MMD 标准', 'MMD 標準', 'MMD 표준'],
  'info.kpSkeletonModel': ['this model', 'このモデル', '此模型', '此模型', '이 모델'],
  // model rig (rig-summary.js)
  'sec.rig': ['Model rig', 'モデルのリグ', '模型骨架', '模型骨架', '모델 리그'],
  'rig.naming': ['Naming', '命名', '命名', '命名', '명명'],
  'rig.legIk': ['Leg IK', '足IK', '腿部 IK', '腿部 IK', '다리 IK'],
  'rig.legIkValue': ['{bones} (under {parents})', '{bones}（親: {parents}）', '{bones}（父: {parents}）', '{bones}（父: {parents}）',
    '{bones} (부모: {parents})'],
  'rig.noParent': ['no parent', '親なし', '无父骨骼', '無父骨骼', '부모 없음'],
  'rig.knees': ['Knees at rest', '静止時のひざ', '静止时的膝', '靜止時的膝', '정지 시 무릎'],
  'rig.kneesValue': ['{rest}° (opens to {open}°)', '{rest}°（最大 {open}° まで伸びる）', '{rest}°（最多伸到 {open}°）',
    '{rest}°（最多伸到 {open}°）', '{rest}° ({open}°까지 펴짐)'],
  'rig.reach': ['Leg reach (MMD IK)', '足の届く距離（MMD IK）', '腿部可达距离（MMD IK）', '腿部可達距離（MMD IK）', '다리 도달 거리 (MMD IK)'],
  'rig.reachValue': ['{reach} of {length} units', '{length} 単位中 {reach}', '{length} 单位中 {reach}', '{length} 單位中 {reach}',
    '{length} 단위 중 {reach}'],
  'rig.ikOffset': ['IK bone to ankle', 'IKボーンと足首の距離', 'IK 骨骼到脚踝', 'IK 骨骼到腳踝', 'IK 본과 발목 거리'],
  'rig.floor': ['Floor, scale', '床の高さ・スケール', '地面高度、比例', '地面高度、比例', '바닥 높이, 배율'],
  'rig.floorValue': ['{floor} units, {scale}×', '{floor} 単位・{scale}×', '{floor} 单位、{scale}×', '{floor} 單位、{scale}×',
    '{floor} 단위, {scale}×'],
  'rig.chains': ['IK chains', 'IKチェーン', 'IK 链', 'IK 鏈', 'IK 체인'],
  'rig.missing': ['Missing roles', '見つからない役割', '缺少的角色', '缺少的角色', '없는 역할'],
  'rig.error': ['The rig could not be read: {detail}', 'リグを読み取れません: {detail}', '无法读取骨架：{detail}',
    '無法讀取骨架：{detail}', '리그를 읽을 수 없습니다: {detail}'],

  'info.help': ['Drag to orbit, wheel to zoom, right-drag to pan.',
    'ドラッグで回転、ホイールでズーム、右ドラッグで移動。',
    '拖动旋转，滚轮缩放，右键拖动平移。',
    '拖曳旋轉，滾輪縮放，右鍵拖曳平移。',
    '드래그로 회전, 휠로 확대/축소, 오른쪽 드래그로 이동.'],

  // errors
  'err.title': ['Something went wrong', 'エラーが発生しました', '出错了', '發生錯誤', '문제가 발생했습니다'],
  'err.close': ['Dismiss', '閉じる', '关闭', '關閉', '닫기'],
  'err.model': ['Could not load the model {name}: {detail}', 'モデル {name} を読み込めませんでした: {detail}',
    '无法载入模型 {name}：{detail}', '無法載入模型 {name}：{detail}', '모델 {name}을(를) 불러올 수 없습니다: {detail}'],
  'err.noModel': ['No PMX or PMD file among the dropped files ({names}).',
    'ドロップされたファイルにPMX/PMDがありません（{names}）。',
    '拖放的文件中没有 PMX 或 PMD（{names}）。',
    '拖放的檔案中沒有 PMX 或 PMD（{names}）。',
    '놓은 파일 중에 PMX나 PMD가 없습니다 ({names}).'],
  'err.vrm': ['Could not convert {name} to VRM: {detail}', '{name} をVRMに変換できませんでした: {detail}',
    '无法将 {name} 转换为 VRM：{detail}', '無法將 {name} 轉換為 VRM：{detail}', '{name}을(를) VRM으로 변환할 수 없습니다: {detail}'],
  'err.vmd': ['Could not read the motion {name}: {detail}', 'モーション {name} を読み込めませんでした: {detail}',
    '无法读取动作 {name}：{detail}', '無法讀取動作 {name}：{detail}', '모션 {name}을(를) 읽을 수 없습니다: {detail}'],
  'err.generate': ['Could not generate the motion: {detail}', 'モーションを生成できませんでした: {detail}',
    '无法生成动作：{detail}', '無法產生動作：{detail}', '모션을 생성할 수 없습니다: {detail}'],
  'err.score': ['Could not score {name}: {detail}', '{name} を採点できませんでした: {detail}', '无法为 {name} 评分：{detail}',
    '無法為 {name} 評分：{detail}', '{name}을(를) 채점할 수 없습니다: {detail}'],
  'err.keypoints': ['Could not compute the keypoints of {name}: {detail}', '{name} のキーポイントを計算できませんでした: {detail}',
    '无法计算 {name} 的关键点：{detail}', '無法計算 {name} 的關鍵點：{detail}', '{name}의 키포인트를 계산할 수 없습니다: {detail}'],
  'err.unknownFile': ['Not a PMX, PMD, VMD or audio file: {names}', 'PMX・PMD・VMD・音声ファイルではありません: {names}',
    '不是 PMX、PMD、VMD 或音频文件：{names}', '不是 PMX、PMD、VMD 或音訊檔案：{names}', 'PMX, PMD, VMD, 오디오 파일이 아닙니다: {names}'],
  'err.audio': ['Could not play the song {name}: {detail}', '曲 {name} を再生できませんでした: {detail}',
    '无法播放歌曲 {name}：{detail}', '無法播放歌曲 {name}：{detail}', '노래 {name}을(를) 재생할 수 없습니다: {detail}'],
  'err.webgl': ['This browser cannot start WebGL: {detail}', 'このブラウザではWebGLを開始できません: {detail}',
    '此浏览器无法启动 WebGL：{detail}', '此瀏覽器無法啟動 WebGL：{detail}', '이 브라우저에서 WebGL을 시작할 수 없습니다: {detail}'],
  'err.capability': ['This build of procmotion has no {what} yet.', 'このprocmotionビルドには{what}がまだありません。',
    '此 procmotion 版本还没有{what}。', '此 procmotion 版本還沒有{what}。', '이 procmotion 빌드에는 아직 {what}이(가) 없습니다.'],
  'err.traceNoPath': ['Add at least two points (drag the sphere, then "Add point") before generating keyframes.',
    'キーフレームを生成する前に点を2つ以上追加してください（球をドラッグして「点を追加」）。',
    '生成关键帧前请至少添加两个点（拖动球体，然后点“添加点”）。',
    '產生關鍵幀前請至少新增兩個點（拖曳球體，然後按「新增點」）。',
    '키프레임을 생성하기 전에 점을 두 개 이상 추가하세요 (구를 드래그한 뒤 "점 추가").'],
  'err.tracePoints': ['{limb}: the path has {points} point; generating keyframes needs at least two.',
    '{limb}: 軌道の点が {points} 個です。キーフレームの生成には2点以上必要です。',
    '{limb}：轨迹只有 {points} 个点；生成关键帧至少需要两个点。',
    '{limb}：軌跡只有 {points} 個點；產生關鍵幀至少需要兩個點。',
    '{limb}: 궤적의 점이 {points}개입니다. 키프레임을 생성하려면 두 개 이상 필요합니다.'],
  'err.traceTooMany': ['{limb}: the path already holds the most points a path can ({max}).', '{limb}: 軌道の点は上限（{max}）に達しています。',
    '{limb}：轨迹已达到点数上限（{max}）。', '{limb}：軌跡已達到點數上限（{max}）。', '{limb}: 궤적의 점이 최대 개수({max})에 도달했습니다.'],
  'err.traceBones': ['{limb}: this model cannot trace it, it has no {bones}.', '{limb}: このモデルではトレースできません（{bones} がありません）。',
    '{limb}：此模型无法沿轨迹移动它，缺少 {bones}。', '{limb}：此模型無法沿軌跡移動它，缺少 {bones}。',
    '{limb}: 이 모델로는 트레이싱할 수 없습니다 ({bones} 본이 없음).'],
  'err.traceCount': ['Keyframes must be 2 to 20 (got {count}).', 'キーフレーム数は2〜20です（{count}）。', '关键帧数必须为 2 到 20（当前 {count}）。',
    '關鍵幀數必須為 2 到 20（目前 {count}）。', '키프레임 수는 2에서 20 사이여야 합니다 (현재 {count}).'],
  'err.unexpected': ['Unexpected error: {detail}', '予期しないエラー: {detail}', '意外错误：{detail}', '意外錯誤：{detail}', '예기치 않은 오류: {detail}'],
};

const INDEX = Object.fromEntries(LANGUAGES.map((l, i) => [l.id, i]));

/** Every key with its five labels (for tests and tools). */
export const TABLE = Object.fromEntries(
  Object.entries(ROWS).map(([k, row]) => [k, Object.fromEntries(LANGUAGES.map((l, i) => [l.id, row[i]]))]),
);

/** The best table language for a list of BCP 47 tags (navigator.languages), 'en' when none fits. */
export function pickLanguage(tags) {
  for (const raw of tags ?? []) {
    const tag = String(raw).toLowerCase();
    if (tag.startsWith('zh')) {
      // Traditional for zh-TW, zh-HK, zh-MO and any zh-Hant; Simplified otherwise.
      return /^zh-(tw|hk|mo)\b|hant/.test(tag) ? 'zh-TW' : 'zh-CN';
    }
    const base = tag.split('-')[0];
    if (base === 'ja' || base === 'ko' || base === 'en') return base;
  }
  return 'en';
}

let current = 'en';
const listeners = new Set();

export function language() {
  return current;
}

/** Switch language; listeners (and applyI18n callers) relabel the page. */
export function setLanguage(id) {
  if (!(id in INDEX)) throw new Error(`i18n: unknown language ${id}`);
  current = id;
  for (const fn of listeners) fn(id);
}

export function onLanguageChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** The label for `key` in the current language, with {name} placeholders filled from `vars`. */
export function t(key, vars) {
  const row = ROWS[key];
  let s = row ? row[INDEX[current]] ?? row[0] : key;
  if (vars) s = s.replace(/\{(\w+)\}/g, (m, name) => (name in vars ? String(vars[name]) : m));
  return s;
}

/** Fill text, titles, aria-labels and placeholders of elements marked with data-i18n* attributes. */
export function applyI18n(root) {
  for (const el of root.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll('[data-i18n-title]')) el.title = t(el.dataset.i18nTitle);
  for (const el of root.querySelectorAll('[data-i18n-aria]')) el.setAttribute('aria-label', t(el.dataset.i18nAria));
  for (const el of root.querySelectorAll('[data-i18n-placeholder]')) el.placeholder = t(el.dataset.i18nPlaceholder);
  if (root.documentElement) root.documentElement.lang = current;
}
