// The page's own words in English and Chinese. Exercise texts come from the engine's documents.

import { own, shownValue } from './own.js';

// The engine's refusal of a document, without the file name it starts with (said before it).
const refusal = (p) => String(p.message).replace(/^exercises\/[^:]*: /, '');

const STRINGS = {
  en: {
    title: 'commlab · P5 exercises',
    subtitle: 'How long communication takes in a GPU cluster: the exercises of lecture P5, checked by the engine.',
    otherLanguage: '中文',
    otherLanguageName: 'Switch to Chinese',
    loading: 'Loading the engine…',
    engineError: 'The engine answered with an error: ',
    // The engine failing (engine/door.js: timeouts, a worker restarted, the main thread's engine):
    // what happened in plain words, once; the technical detail goes in a details element.
    engineProblem: (p) => ({
      missing: `The exercise engine could not be downloaded: the server answered HTTP ${p.status}.`,
      timeout: `The exercise engine did not arrive within ${p.timeout_s} s.`,
      invalid: 'The exercise engine arrived damaged: its file is incomplete or is not an engine.',
      network: 'The exercise engine could not be downloaded: there is no connection to the server.',
    })[p.kind] ?? 'The exercise engine could not be started in this browser.',
    engineProblemKept: 'The exercises can still be read and your saved answers are kept, but answers cannot be checked until the engine loads.',
    engineRetry: 'Retry',
    engineDetails: 'Details',
    checkStopped: 'The engine stopped while checking. Your answers are kept: press “Check answers” again.',
    checkNoEngine: 'The engine could not be loaded, so answers cannot be checked now. Your answers are kept.',
    engineStopped: 'The engine stopped before it answered; it has been restarted: try again.',
    documentProblems: (n) => (n === 1 ? 'An exercise file could not be used; the other exercises work:' : `${n} exercise files could not be used; the other exercises work:`),
    documentProblem: (p) => ({
      missing: `exercises/${p.file} could not be fetched (${p.message}).`,
      unreadable: `exercises/${p.file} could not be read: ${p.message}.`,
      index: `exercises/${p.file} is not a list of exercise files: it ${p.message}.`,
    })[p.kind] ?? `exercises/${p.file} was refused by the engine: ${refusal(p)}`,
    // Calculator input problems: the control's label, the value as typed, the allowed range.
    linkTable: 'The lecture’s links: α and β',
    linkTableCaption: 'Per GPU and direction; β is the effective bandwidth, 80% of nominal (§0.4); n½ = α × β.',
    linkTableCols: ['Link', 'α', 'β (effective)', 'Nominal', 'n½'],
    paramNotNumber: (label) => `${label}: type a number.`,
    paramOutOfRange: (label, typed, lo, hi) => `${label}: ${typed} is outside the allowed range, ${lo} to ${hi}.`,
    paramNotWhole: (label, typed) => `${label}: ${typed} is not a whole number; type a whole number.`,
    engineRefused: (label) => (label ? `The engine cannot compute these values: change ${label}.` : 'The engine cannot compute these values: change a parameter.'),
    exercise: 'Exercise',
    contents: 'Exercises',
    progress: (n, total) => `${n} of ${total} solved`,
    exportProgress: 'Export progress',
    importProgress: 'Import progress',
    resetProgress: 'Reset progress',
    resetConfirm: 'Erase all answers and progress on this page?',
    resetYes: 'Erase',
    resetNo: 'Keep',
    imported: 'Progress imported.',
    // An embedded exercise imports its own part of a file; "Open in the full lab" brings its state.
    importNothingFor: (id) => `The file holds no progress for exercise ${id}.`,
    carryRefused: (m) => `The progress brought from the embedded exercise was not used: ${m}`,
    storageAsk: 'Allow saving',
    storageAskNone: 'This frame cannot save your progress: the browser blocks its storage. Use Export progress to keep your work.',
    storageAskRefused: 'The browser did not allow this frame to save. Use Export progress to keep your work.',
    storageAskGranted: 'Saving is allowed: your progress is kept in this browser.',
    importFailed: 'The file was not imported and nothing changed. ',
    fileNotProgress: 'It is not a commlab progress file (a JSON object with "format": "commlab-progress").',
    fileNotJson: (m) => `(It is not JSON: ${m}.)`,
    fileVersion: (v) => `Its "version" ${v} is not one this page reads (1 or 2).`,
    fileUnknownExercise: (id, known) => `It holds exercise "${id}", which this page does not have (exercises ${known}).`,
    fileExercise: (id, title) => `Exercise ${id} (${title})`,
    fileVariant: (key) => `variant "${key}"`,
    fileLecture: 'the lecture’s values',
    fileRecord: 'its record',
    fileNotObject: 'not a JSON object',
    fileUnknownField: 'not a field of a progress record',
    fileUnknownAnswer: (k) => `"${k}" is not one of its answers`,
    fileUnknownParam: (k) => `"${k}" is not one of its parameters`,
    fileAnswer: (label, k) => `answer ${label} ("${k}")`,
    fileParam: (label, k) => `parameter ${label} ("${k}")`,
    fileBadValue: (k, v) => `${v} is not a valid value of "${k}"`,
    fileNotCount: (v) => `${v} is not a whole number of at least 0`,
    fileNotBoolean: (v) => `${v} is not true or false`,
    fileNoSuchVariant: (k) => `the variant "${k}" is not in the file`,
    restoreDropped: (list) => `Saved progress the engine no longer accepts was set aside (${list}); those exercises show the lecture's values.`,
    revealed: 'answers revealed',
    solutionReveals: 'Opening the worked solution before solving counts as revealing the answers.',
    leaveTitle: 'Leave this variant?',
    leaveUnchecked: (list) => `You typed answers you have not checked yet (${list}).`,
    leaveKept: 'They stay saved with this variant: choose it again under “Your variants” to find them.',
    leaveKeptLecture: 'They stay saved with the lecture’s values: “Lecture’s values” brings them back.',
    leaveYes: 'Leave',
    leaveNo: 'Keep',
    yourVariants: 'Your variants',
    variantName: (n) => `Variant ${n}`,
    variantState: (solved, revealed, attempts) => [solved ? 'solved' : '', revealed ? 'revealed' : '', !solved && attempts ? (attempts === 1 ? '1 attempt' : `${attempts} attempts`) : ''].filter(Boolean).join(', '),
    storageUnavailable: 'This page cannot save progress here (storage is blocked or partitioned); use Export to keep it.',
    resetExercise: 'Reset this exercise',
    resetExerciseConfirm: 'Erase your answers and progress in this exercise?',
    openFull: 'Open in the full lab ↗',
    openFullLabel: 'Open this exercise in the full lab (new tab)',
    embedTools: 'Language, progress and the full lab',
    storageNone: 'This exercise cannot save your progress here: the browser blocks storage in embedded frames and the course page does not keep it. Use Export progress to keep your work.',
    restoreRefused: (m) => `The progress the course page sent back was not used: ${m}`,
    // Saving progress (app/store.js): storage full or refused, an import too large, set-aside values.
    saveFailed: (quota) => `Your latest progress could not be saved: ${quota ? "this browser's storage for this site is full" : 'this browser refused to save it'}. It is kept in this page and saved as soon as there is space again (free some, e.g. by clearing other sites' data); Export progress keeps a copy now.`,
    saveRecovered: 'Your progress is saved again.',
    saveExport: 'Export progress',
    importTooLarge: (size) => `It needs ${size} of this browser's storage for this site and the browser refused it (storage full). Your saved progress is as it was; free some space, or keep the file and import it elsewhere.`,
    importRefusedStorage: (m) => `The browser refused to save it (${m}). Your saved progress is as it was.`,
    importNotUndone: ' Some keys could not be put back as they were: export your progress now.',
    importedNotKept: 'Progress imported, but this browser does not let the page save it: it lasts until the page is closed; use Export progress to keep it.',
    corruptStates: (keys) => `Saved progress that could not be used was set aside (stored under ${keys.map((k) => `"${k}"`).join(', ')}; Export progress includes it) and the page started without it.`,
    fileNotTime: ' (a time such as "2024-05-01T12:00:00.000Z")',
    restoreTrimmed: (list) => `Some saved fields could not be used and were left out (${list}); a copy of each record as it was is set aside, and the rest of its progress is kept.`,
    calculator: 'Live calculator',
    calculatorNote: 'Type or drag to change the parameters; the results follow at once.',
    calcResults: 'Results',
    useExerciseValues: 'Back to the exercise’s values',
    answers: 'Your answers',
    check: 'Check answers',
    hint: 'Show a hint',
    noMoreHints: 'No more hints',
    hints: 'Hints',
    solution: 'Show solution',
    hideSolution: 'Hide solution',
    solutionTitle: 'Worked solution',
    solutionLocked: 'The solution opens after your first attempt.',
    variant: 'New variant',
    lectureValues: 'Lecture’s values',
    variantNote: 'A variant: new parameters, answers from the engine.',
    attempts: (n) => (n === 1 ? '1 attempt' : `${n} attempts`),
    solved: 'Solved',
    rule: 'Rule',
    verdict: { correct: 'Correct', incorrect: 'Not yet', 'format-error': 'Not a number' },
    empty: 'Type an answer first.',
    nothingTyped: 'Type at least one answer, then check.',
    // The same words as start.js says on a prerendered card.
    checkWaits: 'The engine is still loading: your answers will be checked as soon as it is ready.',
    choose: 'Choose…',
    allCorrect: 'All correct.',
    showAll: 'All exercises',
    skip: 'Skip to the exercises',
    tools: 'Progress and language',
    bars: 'Compared',
    timelineCaption: 'Two tokens of every micro-batch through the pipeline (engine simulation): rows are stages, colours micro-batches.',
    timelineTitle: (p, m) => `Pipeline of ${p} stages with ${m} micro-batches`,
    timelineAxis: (x) => `time →   token interval ${x}`,
    calcHidden: 'These are the exercise’s own values, so the results are its answers: they show once you have solved it. Change a parameter to explore.',
    reveal: 'Reveal the answers',
    words: { yes: 'yes', no: 'no' },
    // Settings of the address (a shared link) or of a frame's URL that are not allowed
    // (app/address.js, views/explore.js parseSettings): named, with what is allowed.
    linkProblems: (n) => (n === 1 ? 'A setting in this page’s address cannot be used:' : `${n} settings in this page’s address cannot be used:`),
    linkProblem: (p) => `${p.setting}${p.value == null ? ' is missing' : `: ${shownValue(p.value)} is not allowed`}; allowed: ${allowedText(p.allowed, 'en')}.` +
      (p.fallback != null ? ` Shown instead: ${fallbackText(p.fallback, 'en')}.` : ''),
  },
  zh: {
    title: 'commlab · P5 练习',
    subtitle: 'GPU 集群里通信要多久：前置讲 P5 的练习，由引擎即时判分。',
    otherLanguage: 'English',
    otherLanguageName: '切换到英文',
    loading: '正在加载引擎…',
    engineError: '引擎返回错误：',
    // The engine failing (engine/door.js: timeouts, a worker restarted, the main thread's engine):
    // what happened in plain words, once; the technical detail goes in a details element.
    engineProblem: (p) => ({
      missing: `无法下载判分引擎：服务器返回 HTTP ${p.status}。`,
      timeout: `判分引擎在 ${p.timeout_s} 秒内没有下载完成。`,
      invalid: '判分引擎文件已损坏：文件不完整，或不是引擎文件。',
      network: '无法下载判分引擎：连接不到服务器。',
    })[p.kind] ?? '判分引擎无法在此浏览器中启动。',
    engineProblemKept: '练习仍可阅读，已保存的答案也都保留；但在引擎加载之前无法检查答案。',
    engineRetry: '重试',
    engineDetails: '详情',
    checkStopped: '检查时引擎停止了。你的答案已保留：请再按一次“检查答案”。',
    checkNoEngine: '引擎未能加载，现在无法检查答案。你的答案已保留。',
    engineStopped: '引擎在回答之前停止了，已重新启动：请再试一次。',
    documentProblems: (n) => (n === 1 ? '有一个练习文件无法使用，其余练习照常：' : `有 ${n} 个练习文件无法使用，其余练习照常：`),
    documentProblem: (p) => ({
      missing: `无法获取 exercises/${p.file}（${p.message}）。`,
      unreadable: `无法读取 exercises/${p.file}：${p.message}。`,
      index: `exercises/${p.file} 不是练习文件列表：它应为 {"files": ["01.json", ...]}。`,
    })[p.kind] ?? `引擎未采用 exercises/${p.file}：${refusal(p)}`,
    linkTable: '讲义中的链路：α 与 β',
    linkTableCaption: '每块 GPU、每个方向；β 为有效带宽，即标称值的 80%（§0.4）；n½ = α × β。',
    linkTableCols: ['链路', 'α', 'β（有效）', '标称', 'n½'],
    paramNotNumber: (label) => `${label}：请输入一个数。`,
    paramOutOfRange: (label, typed, lo, hi) => `${label}：${typed} 超出允许的范围 ${lo} 到 ${hi}。`,
    paramNotWhole: (label, typed) => `${label}：${typed} 不是整数，请输入整数。`,
    engineRefused: (label) => (label ? `引擎无法按这组参数计算：请调整“${label}”。` : '引擎无法按这组参数计算：请调整参数。'),
    exercise: '练习',
    contents: '练习目录',
    progress: (n, total) => `已完成 ${n} / ${total}`,
    exportProgress: '导出进度',
    importProgress: '导入进度',
    resetProgress: '清除进度',
    resetConfirm: '清除本页的全部答案和进度？',
    resetYes: '清除',
    resetNo: '保留',
    imported: '进度已导入。',
    importNothingFor: (id) => `文件中没有练习 ${id} 的进度。`,
    carryRefused: (m) => `从嵌入练习带来的进度未被采用：${m}`,
    storageAsk: '允许保存',
    storageAskNone: '此框架无法保存你的进度：浏览器禁止它使用存储。请用“导出进度”保存。',
    storageAskRefused: '浏览器不允许此框架保存。请用“导出进度”保存。',
    storageAskGranted: '已允许保存：你的进度保存在此浏览器中。',
    importFailed: '文件未导入，页面没有任何改变。',
    fileNotProgress: '这不是 commlab 的进度文件（应为带 "format": "commlab-progress" 的 JSON 对象）。',
    fileNotJson: (m) => `（不是 JSON：${m}。）`,
    fileVersion: (v) => `它的 "version" ${v} 不是本页能读的版本（1 或 2）。`,
    fileUnknownExercise: (id, known) => `它含有练习 "${id}"，本页没有这道练习（只有 ${known}）。`,
    fileExercise: (id, title) => `练习 ${id}（${title}）`,
    fileVariant: (key) => `参数组 "${key}"`,
    fileLecture: '讲义的参数',
    fileRecord: '记录',
    fileNotObject: '不是 JSON 对象',
    fileUnknownField: '不是进度记录的字段',
    fileUnknownAnswer: (k) => `"${k}" 不是它的答案之一`,
    fileUnknownParam: (k) => `"${k}" 不是它的参数之一`,
    fileAnswer: (label, k) => `答案 ${label}（"${k}"）`,
    fileParam: (label, k) => `参数 ${label}（"${k}"）`,
    fileBadValue: (k, v) => `${v} 不是 "${k}" 的有效值`,
    fileNotCount: (v) => `${v} 不是大于等于 0 的整数`,
    fileNotBoolean: (v) => `${v} 不是 true 或 false`,
    fileNoSuchVariant: (k) => `文件里没有参数组 "${k}"`,
    restoreDropped: (list) => `保存的进度中有引擎不再接受的参数，已另存（${list}）；这些练习显示讲义的参数。`,
    revealed: '已查看答案',
    solutionReveals: '完成之前打开解答，算作查看了答案。',
    leaveTitle: '离开这组参数？',
    leaveUnchecked: (list) => `你填写的答案还没有检查（${list}）。`,
    leaveKept: '它们随这组参数保存：在“你的参数组”里重新选它即可找回。',
    leaveKeptLecture: '它们随讲义的参数保存：点“讲义的参数”即可找回。',
    leaveYes: '离开',
    leaveNo: '留下',
    yourVariants: '你的参数组',
    variantName: (n) => `参数组 ${n}`,
    variantState: (solved, revealed, attempts) => [solved ? '已完成' : '', revealed ? '已查看答案' : '', !solved && attempts ? `已作答 ${attempts} 次` : ''].filter(Boolean).join('，'),
    storageUnavailable: '此处无法保存进度（存储被禁用或分区），请用“导出进度”保存。',
    resetExercise: '清除本题进度',
    resetExerciseConfirm: '清除本题的答案和进度？',
    openFull: '在完整页面中打开 ↗',
    openFullLabel: '在新标签页中打开完整页面的本题',
    embedTools: '语言、进度和完整页面',
    storageNone: '此处无法保存本题进度：浏览器禁止嵌入的框架使用存储，课程页面也没有代为保存。请用“导出进度”保存。',
    restoreRefused: (m) => `课程页面送回的进度未被采用：${m}`,
    // Saving progress (app/store.js): storage full or refused, an import too large, set-aside values.
    saveFailed: (quota) => `最新的进度未能保存：${quota ? '浏览器为本站提供的存储空间已满' : '浏览器拒绝保存'}。进度暂存在本页中，一有空间就会保存（可清除其他网站的数据腾出空间）；现在用“导出进度”可保存一份副本。`,
    saveRecovered: '进度已重新保存。',
    saveExport: '导出进度',
    importTooLarge: (size) => `它需要本站 ${size} 的浏览器存储空间，浏览器拒绝了（存储已满）。已保存的进度保持原样；请腾出空间，或保留此文件到别处导入。`,
    importRefusedStorage: (m) => `浏览器拒绝保存（${m}）。已保存的进度保持原样。`,
    importNotUndone: '有些键未能恢复原样：请立即导出进度。',
    importedNotKept: '进度已导入，但浏览器不允许本页保存：关闭页面后即失去；请用“导出进度”保存。',
    corruptStates: (keys) => `无法使用的已保存进度已另存（键名 ${keys.map((k) => `"${k}"`).join('、')}；“导出进度”包含这些内容），页面在没有它们的情况下启动。`,
    fileNotTime: '（应为时间，例如 "2024-05-01T12:00:00.000Z"）',
    restoreTrimmed: (list) => `有些保存的字段无法使用，已略去（${list}）；每条记录的原样副本已另存，其余进度保留。`,
    calculator: '实时计算器',
    calculatorNote: '输入或拖动改变参数，结果随之更新。',
    calcResults: '结果',
    useExerciseValues: '恢复练习的参数',
    answers: '你的答案',
    check: '检查答案',
    hint: '看一条提示',
    noMoreHints: '没有更多提示了',
    hints: '提示',
    solution: '查看解答',
    hideSolution: '收起解答',
    solutionTitle: '解答',
    solutionLocked: '作答一次之后才能查看解答。',
    variant: '换一组参数',
    lectureValues: '讲义的参数',
    variantNote: '变式：新的参数，答案由引擎给出。',
    attempts: (n) => `已作答 ${n} 次`,
    solved: '已完成',
    rule: '判分规则',
    verdict: { correct: '正确', incorrect: '不对', 'format-error': '不是数字' },
    empty: '请先填写答案。',
    nothingTyped: '至少填一个答案再检查。',
    checkWaits: '引擎仍在加载：就绪后会立即检查你的答案。',
    choose: '请选择…',
    allCorrect: '全部正确。',
    showAll: '全部练习',
    skip: '跳到练习',
    tools: '进度与语言',
    bars: '对比',
    timelineCaption: '每个微批的两个 token 走过流水线（引擎模拟）：每行一段，颜色代表微批。',
    timelineTitle: (p, m) => `${p} 段流水线、${m} 个微批`,
    timelineAxis: (x) => `时间 →   token 间隔 ${x}`,
    calcHidden: '这是练习本身的参数，结果就是答案：做对之后显示。改一个参数就能探索。',
    reveal: '查看答案',
    words: { yes: '能', no: '不能' },
    // 地址（分享的链接）或框架 URL 中不允许的设置（app/address.js、views/explore.js parseSettings）。
    linkProblems: (n) => `此页面地址中有 ${n} 项设置无法使用：`,
    linkProblem: (p) => `${p.setting}：${p.value == null ? '缺少' : `不能取 ${shownValue(p.value)}`}；可取：${allowedText(p.allowed, 'zh')}。` +
      (p.fallback != null ? `已改用：${fallbackText(p.fallback, 'zh')}。` : ''),
  },
};

// What is shown instead of a bad setting: its default value as the address writes it, or in words.
const FALLBACK_WORDS = {
  en: { exercises: 'the exercises', language: 'the saved or the browser’s language', noSeed: 'no fixed variant (the lecture’s values)',
    noStudent: 'no student’s own variant', studentKey: '1 to 200 characters, none a control character',
    carry: 'the progress a frame’s “Open in the full lab” link brings', noCarry: 'the progress saved here' },
  zh: { exercises: '练习页面', language: '已保存的语言或浏览器的语言', noSeed: '不固定变式（讲义的参数）',
    noStudent: '不按学生分配变式', studentKey: '1 到 200 个字符，不含控制字符',
    carry: '嵌入框架“在完整实验室中打开”链接带来的进度', noCarry: '本处已保存的进度' },
};
function fallbackText(fallback, lang) {
  return typeof fallback === 'object' ? FALLBACK_WORDS[lang === 'zh' ? 'zh' : 'en'][fallback.word] : String(fallback);
}

// What a setting of the address allows, in words: a list of names, a range of whole numbers,
// bytes, or one of the custom link's two figures.
function allowedText(allowed, lang) {
  const n = (v) => v.toLocaleString('en');
  const zh = lang === 'zh';
  if (allowed.list) return allowed.list.join(zh ? '、' : ', ');
  if (allowed.word) return FALLBACK_WORDS[zh ? 'zh' : 'en'][allowed.word];
  if (allowed.whole) return zh ? `${n(allowed.whole[0])} 到 ${n(allowed.whole[1])} 之间的整数` : `a whole number from ${n(allowed.whole[0])} to ${n(allowed.whole[1])}`;
  if (allowed.bytes) return zh ? `${n(allowed.bytes[0])} 到 ${n(allowed.bytes[1])} 之间的字节数` : `a number of bytes from ${n(allowed.bytes[0])} to ${n(allowed.bytes[1])}`;
  if (allowed.seconds) return zh ? `不小于 0 的秒数，与 ${allowed.seconds} 一起给出` : `a number of seconds, 0 or more, given with ${allowed.seconds}`;
  if (allowed.rate) return zh ? `大于 0 的每秒字节数，与 ${allowed.rate} 一起给出` : `a number of bytes per second above 0, given with ${allowed.rate}`;
  if (allowed.contrast) return contrastText(allowed.contrast, zh ? 'zh' : 'en');
  return '';
}

// The frame's look (app/address.js lookOptions, app/theme.js): theme= and the colours, and a
// colour refused because some text would be unreadable on it (or it on something).
Object.assign(FALLBACK_WORDS.en, {
  systemTheme: 'the browser’s light or dark setting', colour: 'a colour written #rgb or #rrggbb (in a URL, %23 for #)',
  themeColour: 'the theme’s own colour',
});
Object.assign(FALLBACK_WORDS.zh, {
  systemTheme: '浏览器的浅色或深色设置', colour: '写作 #rgb 或 #rrggbb 的颜色（URL 中 # 写作 %23）',
  themeColour: '主题自带的颜色',
});
const CONTRAST_WITH = {
  en: { ink: 'the text', muted: 'the secondary text', accent: 'the accent', ok: 'the “correct” green', bad: 'the error red',
    warn: 'the warning colour', card: 'the background', field: 'the answer fields', 'calc-bg': 'the calculator',
    'solution-bg': 'the worked solution', 'warn-bg': 'the hints', 'ok-bg': 'a correct answer’s field', 'bad-bg': 'a wrong answer’s field' },
  zh: { ink: '正文', muted: '次要文字', accent: '强调色', ok: '“正确”的绿色', bad: '错误的红色', warn: '警告色',
    card: '背景', field: '答题框', 'calc-bg': '计算器', 'solution-bg': '解答', 'warn-bg': '提示', 'ok-bg': '答对的答题框', 'bad-bg': '答错的答题框' },
};
function contrastText(c, lang) {
  const what = own(CONTRAST_WITH[lang], c.against) ?? c.against;
  return lang === 'zh'
    ? `与${what}（${c.colour}）对比度至少 ${c.min}:1 的颜色（此颜色只有 ${c.ratio}:1）`
    : `a colour with contrast of at least ${c.min}:1 against ${what} (${c.colour}); this one has ${c.ratio}:1`;
}

/** The UI strings of `lang` ("en" or "zh"). */
export function strings(lang) {
  return own(STRINGS, lang) ?? STRINGS.en;
}

/** The browser's preferred language, narrowed to the two the page speaks. */
export function browserLanguage(nav = globalThis.navigator) {
  const list = nav?.languages?.length ? nav.languages : [nav?.language ?? 'en'];
  for (const tag of list) {
    const t = String(tag).toLowerCase();
    if (t.startsWith('zh')) return 'zh';
    if (t.startsWith('en')) return 'en';
  }
  return 'en';
}

/** An engine error in a picture's place, in the page's words: no codes, no work units. */
export function viewProblem(lang, err) {
  const t = viewStrings(lang);
  return err?.code === 'too_large' || err?.code === 'out_of_memory' ? t.viewTooLarge : t.viewFailed;
}

/** Picks `text[lang]` from a {en, zh} object, falling back to the other language. */
export function pick(text, lang) {
  if (text == null || typeof text !== 'object' || Array.isArray(text)) return text ?? '';
  return text[lang] ?? text.en ?? text.zh ?? '';
}

// The words of the views (schedule player, charts, Explore) in both languages.
const VIEW_STRINGS = {
  en: {
    overlapTitle: 'Compute and communication overlapping', computeMs: 'Compute (ms)', commMs: 'Communication (ms)',
    chunks: 'Chunks', alphaPerChunk: 'α per chunk (µs)', communication: 'communication',
    chunkedTitle: (n) => `Chunked overlap, ${n} chunks`, chunkedCaption: 'Each chunk’s communication runs while the next chunk computes; every chunk pays its α.',
    twoBatchTitle: 'Two-batch overlap', twoBatchCaption: 'Two half-batches: one computes while the other communicates.',
    // `outcome` is the engine's: faster, slower (every chunk pays its α) or same.
    overlapNote: ({ serial, total, exposed, outcome, speedup, slowdown }) => `In turn ${serial}; overlapped ${total} (communication exposed ${exposed}), `
      + (outcome === 'faster' ? `${speedup}× faster.` : outcome === 'slower' ? `${slowdown}× slower: the chunks are so small that their α’s cost more than the overlap saves.` : 'no faster.'),
    inTurn: 'in turn', inChunks: (n) => `${n} chunks`, allreduces: 'two all-reduces',
    tpTitle: 'One layer of TP prefill: compute against its two all-reduces',
    tpCaption: 'The engine’s intervals for one layer (the statement’s model: its layers and hidden size with Llama-3’s proportions, as in the worked solution): compute then both all-reduces, and the same in four chunks where each chunk’s all-reduces run while the next chunk computes.',
    tpNote: (a, b, saved, n, outcome) => `A layer takes ${a} in turn and ${b} in four chunks; over ${n} layers that `
      + (outcome === 'faster' ? `saves ${saved}.` : outcome === 'slower' ? `costs ${saved} more: the chunks’ extra α’s outweigh the overlap.` : 'changes nothing.'),
    timeAxis: 'time', timelineTable: 'The intervals as a table', colRow: 'Row', colWhat: 'What', colStart: 'Start', colEnd: 'End',
    microbatches: 'Micro-batches', compute: 'compute', transfer: 'transfer',
    stageName: (i) => `stage ${i + 1}`, microbatchName: (m) => `micro-batch ${m + 1}`, layerName: (i) => `layer ${i + 1}`,
    pipelineTitle: 'Pipeline decode, three tokens of each micro-batch', pipelineCaption: 'The engine’s timeline: rows are stages, colours micro-batches; the thin grey strip at the foot of a row is the transfer to the next stage. The first token fills the pipeline; the bracket spans one steady-state interval of micro-batch 1.',
    viewTooLarge: 'This setting is too large to draw here: choose fewer devices, stages or micro-batches.',
    viewFailed: 'This picture cannot be drawn for these values: change a parameter.',
    tokenName: (k) => `token ${k + 1}`, stageLink: (i) => `stage ${i + 1} → ${i + 2}`, transferBetween: 'transfer to the next stage',
    microbatchColour: (c, m) => `micro-batch ${Array.from({ length: Math.ceil((m - c) / 8) }, (_, j) => c + 1 + 8 * j).join(', ')}`,
    microbatchCount: (m) => (m === 1 ? '1 micro-batch' : `${m} micro-batches`),
    steadyBracket: (x) => `steady state: a token every ${x}`,
    // Chosen by the engine's steady_bound: the trip sets the interval, or the stages do (P5 §6.3).
    pipelineNote: ({ m, interval, busy, fill, bound, trip, rate }) => (bound === 'trip'
      ? `${m} micro-batch${m === 1 ? '' : 'es'}: in the steady state each micro-batch gets a token every ${interval}, a token’s trip through every stage and transfer, and the stages compute ${busy}% of the time (${rate} tokens/s in all). `
        + (busy >= 100 ? 'Every stage is busy.' : `${fill} micro-batches fill the pipeline completely; more micro-batches raise throughput, never shorten a token’s trip.`)
      : `${m} micro-batches are more than a token’s trip (${trip}) holds: each stage serves all ${m} in turn, so each micro-batch gets a token every ${interval}, longer than the trip; the stages compute 100% of the time (${rate} tokens/s in all, the most this pipeline gives).`),
    kvTitle: 'Layer-by-layer KV transfer', kvCaption: 'The engine’s intervals: each layer’s KV cache leaves while the next layer computes.',
    kvZoom: (x) => `Zoom on the end of the axis: only the last layer’s transfer, ${x}, is exposed.`,
    kvNote: (c, total, x) => `Prefill ends at ${c}; the last KV arrives at ${total}; exposed ${x}.`,
    nccl: 'NCCL: time against message size for each (algorithm, protocol)',
    ncclCaption: 'The engine’s NCCL model, log-log; shaded bands mark the pair NCCL’s tuner picks.',
    ringAttention: 'Ring attention: compute against transfer per step',
    ringAttentionCaption: 'From the engine: one step’s attention compute and its KV transfer against tokens per device, log-log; above the threshold the compute hides the transfer.',
    tokensPerDevice: 'tokens per device', computeStep: 'compute a step', transferStep: 'KV transfer a step', threshold: 'threshold',
    ringAttentionNote: (a, b) => `Compute hides the transfer from ${a} tokens per device (${b} counting α).`,
    bandwidth: 'Bandwidth fraction against message size',
    bandwidthCaption: 'The fraction of a link’s bandwidth a message of that size reaches, from the engine, for the nine links; n½ (half the bandwidth) marked for the chosen link.',
    fraction: 'bandwidth fraction', thisLink: 'this exercise’s link',
    phases: {},
    player: 'Schedule player',
    playerCaption: 'The engine’s schedule, step by step: arrows are the step’s messages with their size, cells each device’s buffer chunks, darker as they hold more of the device’s final result.',
    play: 'Play', pause: 'Pause', first: 'First step', last: 'Last step',
    stepBack: 'Step back', stepForward: 'Step forward', stepSlider: 'Step shown', speed: 'Speed',
    stepOf: (s, n) => `Step ${s} of ${n}`,
    before: 'Before the first step',
    stepTime: 'this step', total: 'running total', closedForm: 'closed form',
    cutThrough: 'Cut-through: the switch streams the sum out while the data still streams in, on the other direction of each port, so this step adds its α and only the part of its transfer longer than the step before (§5.4)',
    copy: 'copy', reduce: 'reduce (add)',
    cellLegend: {
      allreduce: 'chunk summing 1 input … all inputs', reduce: 'chunk summing 1 input … all inputs (root)',
      reduce_scatter: 'own block summing 1 input … all inputs', allgather: 'block received from its owner',
      alltoall: 'block addressed to this device received', broadcast: 'the root’s data received', sendrecv: 'the sender’s data received',
    },
    complete: 'holds its final result', owesNone: 'not part of this device’s result',
    levels: { intra: 'inside a node (NVLink)', inter: 'across nodes (NIC)' },
    groups: { node: 'within each node', same_local_rank: 'among the GPUs of the same local rank' },
    msgsOf: (n, size) => `${n} × ${size}`,
    phaseText: (p, detail, group) => `${p}${detail ? `: ${detail}` : ''}${group ? ` (${group})` : ''}`,
    colSizes: 'Sizes', timePerStep: 'time per step',
    verified: (k) => `Checked by the engine on real buffers (${k} devices): every result matches the reference.`,
    notVerified: 'The engine could not verify this schedule on real buffers.',
    stepTable: 'The steps as a table',
    colStep: 'Step', colPhase: 'Phase', colMessages: 'Messages', colTime: 'Step time', colTotal: 'Running total',
    moreMessages: (n) => `… and ${n} more`,
    aggregated: (k) => `${k} devices: too many to draw one by one, so each step is a bar as tall as its time; the step table lists each step’s time and messages.`,
    device: (i) => `device ${i}`,
    deviceAt: (i, n, g) => `device ${i}: node ${n}, local rank ${g}`,
    switchName: 'switch',
    nodeName: (n) => `node ${n}`,
    localName: (g) => `local ${g}`,
    cellTitle: (d, c, who, p) => `device ${d}, chunk ${c + 1}: ${who ? `data of device ${who}` : 'nothing yet'}${p >= 0 ? ` (${Math.round(p * 100)}% of its final result)` : ''}`,
    msgText: (m, op, size, level) => `${m.src}→${m.dst} ${op} ${size}${level ? ` (${level})` : ''}`,
    working: 'The engine is working…',
    runsIn: (w) => `Heavy requests run in ${w === 'worker' ? 'a Web Worker' : 'the main thread (no worker from file://)'}.`,
    crossover: 'All-reduce time against message size',
    crossoverCaption: 'Every algorithm’s time from the engine, log-log, 1 B to 1 GB; shaded bands mark where each one wins, their edges the exact crossover sizes the engine finds; the dot is the size asked.',
    size: 'message size (bytes)', time: 'time (s)',
    winner: 'fastest',
    exercisePoint: 'this point',
    fastestAt: (size, name, time) => `at ${size}: ${name}, ${time}`,
    simulatedNote: (topo) => `The closed forms assume a switch (every pair of devices one hop apart). On this topology, ${topo}, messages share links, so this chart plots the engine’s simulated schedules at sampled sizes, the same runs the player draws, and shows no exact crossovers.`,
    simulatedLimit: (k, max) => `On this topology the chart runs the engine’s schedule at every size it plots, so it is drawn for up to ${max} devices (here ${k}). The player above gives the engine’s time for these settings.`,
    askedSize: 'asked size',
    chartTable: 'The values as a table',
    algorithm: 'Algorithm', collective: 'Collective', devices: 'Devices', bytes: 'Bytes per device',
    link: 'Link', customLink: 'custom α, β', alpha: 'α (s)', beta: 'β (B/s)', topology: 'Topology',
    alphaUs: 'α (µs)', betaGBps: 'β (GB/s)', intraLink: 'Intra-node link', interLink: 'Inter-node link', devicesValue: (n) => `${n} devices`,
    devicesRange: (v, min, max) => `Devices: ${v} is not allowed; enter a whole number from ${min} to ${max}.`,
    devicesMultiple: (v, g) => `Devices: ${v} is not a multiple of GPUs per node (${g}); on two levels enter ${g}, ${2 * g}, ${3 * g}, …`,
    gpusRange: (v, min, max) => `GPUs per node: ${v} is not allowed; enter a whole number from ${min} to ${max}.`,
    alphaRange: (v) => `α: ${v} µs is not allowed; enter a number of microseconds, 0 or more.`,
    betaRange: (v) => `β: ${v} GB/s is not allowed; enter a number of GB/s above 0.`,
    settingsHidden: 'The player and the charts return when the settings are allowed.',
    nodes: 'Nodes', gpusPerNode: 'GPUs per node',
    explore: 'Explore', exploreTitle: 'Explore the collective-step engine',
    exploreIntro: 'Any collective, algorithm, topology and device count: the engine runs the schedule, the page draws it. The address holds the settings, so a link reproduces this view.',
    share: 'Link to these settings', copied: 'The address now holds these settings.',
    backToExercises: 'Back to the exercises',
    topologies: { switch: 'switch (one hop, full bisection)', ring: 'ring (neighbours only)', two_level: 'two levels (nodes of GPUs)' },
    algorithms: {
      ring: 'ring', recursive_doubling: 'recursive doubling', rabenseifner: 'Rabenseifner (halving + doubling)',
      binary_tree: 'binomial tree', double_binary_tree: 'double binary tree', in_switch: 'in-switch reduction',
      hierarchical: 'hierarchical', direct: 'direct', pairwise: 'pairwise', tree: 'tree', naive: 'naive',
      linear: 'linear', binomial: 'binomial tree', recursive_halving: 'recursive halving', bruck: 'Bruck',
      scatter_allgather: 'scatter + all-gather', binomial_tree: 'binomial tree', reduce_scatter_gather: 'reduce-scatter + gather',
    },
    collectives: {
      allreduce: 'all-reduce', reduce_scatter: 'reduce-scatter', allgather: 'all-gather', broadcast: 'broadcast',
      reduce: 'reduce', alltoall: 'all-to-all', sendrecv: 'send/receive',
    },
  },
  zh: {
    overlapTitle: '计算与通信重叠', computeMs: '计算（毫秒）', commMs: '通信（毫秒）',
    chunks: '块数', alphaPerChunk: '每块 α（微秒）', communication: '通信',
    chunkedTitle: (n) => `分块重叠，${n} 块`, chunkedCaption: '每块的通信与下一块的计算同时进行；每块都要付一次 α。',
    twoBatchTitle: '双批重叠', twoBatchCaption: '两个半批：一个计算时另一个通信。',
    overlapNote: ({ serial, total, exposed, outcome, speedup, slowdown }) => `依次执行 ${serial}；重叠后 ${total}（暴露的通信 ${exposed}），`
      + (outcome === 'faster' ? `快 ${speedup} 倍。` : outcome === 'slower' ? `反而慢 ${slowdown} 倍：块切得太小，每块多付的 α 超过了重叠省下的时间。` : '没有更快。'),
    inTurn: '依次', inChunks: (n) => `${n} 块`, allreduces: '两次 all-reduce',
    tpTitle: 'TP 预填充的一层：计算与两次 all-reduce',
    tpCaption: '引擎给出的一层区间（题目中的模型：按本题的层数和 hidden size，取 Llama-3 的比例，与详解一致）：先计算再做两次 all-reduce；以及分成四块，每块的 all-reduce 与下一块的计算重叠。',
    tpNote: (a, b, saved, n, outcome) => `一层依次执行需 ${a}，分四块需 ${b}；${n} 层`
      + (outcome === 'faster' ? `共节省 ${saved}。` : outcome === 'slower' ? `反而多花 ${saved}：分块多付的 α 超过了重叠省下的时间。` : '没有变化。'),
    timeAxis: '时间', timelineTable: '以表格列出各区间', colRow: '行', colWhat: '内容', colStart: '开始', colEnd: '结束',
    microbatches: '微批数', compute: '计算', transfer: '传输',
    stageName: (i) => `第 ${i + 1} 段`, microbatchName: (m) => `微批 ${m + 1}`, layerName: (i) => `第 ${i + 1} 层`,
    pipelineTitle: '流水线 decode，每个微批三个 token', pipelineCaption: '引擎的时间线：每行一段，颜色代表微批；每行底部的灰色细条是到下一段的传输。第一个 token 填充流水线；括号标出微批 1 在稳态下的一个间隔。',
    viewTooLarge: '这组设置太大，无法在这里画出：请减少设备、段或微批的数量。',
    viewFailed: '这组参数画不出这张图：请调整参数。',
    tokenName: (k) => `第 ${k + 1} 个 token`, stageLink: (i) => `第 ${i + 1} 段 → 第 ${i + 2} 段`, transferBetween: '到下一段的传输',
    microbatchColour: (c, m) => `微批 ${Array.from({ length: Math.ceil((m - c) / 8) }, (_, j) => c + 1 + 8 * j).join('、')}`,
    microbatchCount: (m) => `${m} 个微批`,
    steadyBracket: (x) => `稳态：每 ${x} 一个 token`,
    pipelineNote: ({ m, interval, busy, fill, bound, trip, rate }) => (bound === 'trip'
      ? `${m} 个微批：稳态下每个微批每 ${interval} 生成一个 token，即一个 token 走完所有段和传输的时间；各段 ${busy}% 的时间在计算（合计每秒 ${rate} 个 token）。`
        + (busy >= 100 ? '每一段都在忙。' : `${fill} 个微批才能完全填满流水线；微批再多只提高吞吐，不会缩短一个 token 的路程。`)
      : `${m} 个微批超过了一个 token 的路程（${trip}）能容纳的数量：每一段要轮流服务全部 ${m} 个微批，所以每个微批每 ${interval} 才生成一个 token，比路程还长；各段 100% 的时间在计算（合计每秒 ${rate} 个 token，这条流水线的上限）。`),
    kvTitle: '逐层 KV 传输', kvCaption: '引擎给出的区间：每层的 KV 缓存在下一层计算时发出。',
    kvZoom: (x) => `放大时间轴末端：只有最后一层的传输（${x}）暴露在外。`,
    kvNote: (c, total, x) => `预填充在 ${c} 结束；最后的 KV 在 ${total} 到达；暴露 ${x}。`,
    nccl: 'NCCL：各（算法，协议）组合的时间与消息大小',
    ncclCaption: '引擎的 NCCL 模型，双对数坐标；色带标出 NCCL 调优器选择的组合。',
    ringAttention: '环形注意力：每步计算与传输',
    ringAttentionCaption: '来自引擎：每步注意力计算与 KV 传输时间随每设备 token 数的变化，双对数坐标；超过阈值后计算可隐藏传输。',
    tokensPerDevice: '每设备 token 数', computeStep: '每步计算', transferStep: '每步 KV 传输', threshold: '阈值',
    ringAttentionNote: (a, b) => `每设备 ${a} 个 token 起计算可隐藏传输（计入 α 为 ${b}）。`,
    bandwidth: '带宽利用率与消息大小',
    bandwidthCaption: '各尺寸消息能达到的链路带宽比例，来自引擎，九种链路；所选链路标出 n½（半带宽点）。',
    fraction: '带宽利用率', thisLink: '本题的链路',
    phases: {
      'all at once': '同时进行', 'all-gather': '全收集', 'all-gather (recursive doubling)': '全收集（递归加倍）',
      'broadcast down the tree': '沿树向下广播', 'double binary tree (up and down, pipelined)': '双二叉树（上行与下行，流水线）',
      'fold surplus ranks in': '把多出的进程折叠进来', 'send result to surplus ranks': '把结果发回多出的进程', gather: '收集',
      'intra-node reduce-scatter': '节点内归约分散', 'inter-node all-reduce': '节点间全归约', 'intra-node all-gather': '节点内全收集', 'multicast from the switch': '交换机多播',
      'pairwise exchange': '成对交换', 'recursive doubling': '递归加倍', 'reduce in the switch': '在交换机内归约',
      'reduce up the tree': '沿树向上归约', 'reduce-scatter': '归约分散', 'reduce-scatter (recursive halving)': '归约分散（递归减半）',
      scatter: '分散', 'send / recv': '发送 / 接收',
    },
    player: '调度播放器',
    playerCaption: '引擎的调度，一步一步：箭头是这一步的消息（标出大小），格子是各设备缓冲区的块，持有的最终结果越多颜色越深。',
    play: '播放', pause: '暂停', first: '第一步', last: '最后一步',
    stepBack: '后退一步', stepForward: '前进一步', stepSlider: '显示的步', speed: '速度',
    stepOf: (s, n) => `第 ${s} 步，共 ${n} 步`,
    before: '第一步之前',
    stepTime: '本步', total: '累计', closedForm: '闭式解',
    cutThrough: '直通转发：交换机在数据还在流入时，就从每个端口的另一个方向把和流出，所以这一步只多付一次 α，以及比上一步更长的那部分传输时间（§5.4）',
    copy: '复制', reduce: '归约（相加）',
    cellLegend: {
      allreduce: '块累加了 1 个输入 … 全部输入', reduce: '块累加了 1 个输入 … 全部输入（根）',
      reduce_scatter: '自己的块累加了 1 个输入 … 全部输入', allgather: '已从所属设备收到的块',
      alltoall: '已收到发给本设备的块', broadcast: '已收到根的数据', sendrecv: '已收到发送方的数据',
    },
    complete: '持有最终结果', owesNone: '不属于本设备的结果',
    levels: { intra: '节点内（NVLink）', inter: '跨节点（网卡）' },
    groups: { node: '各节点内', same_local_rank: '在本地序号相同的 GPU 之间' },
    msgsOf: (n, size) => `${n} × ${size}`,
    phaseText: (p, detail, group) => `${p}${detail ? `：${detail}` : ''}${group ? `（${group}）` : ''}`,
    colSizes: '大小', timePerStep: '每步时间',
    verified: (k) => `引擎已在真实缓冲区上验证（${k} 个设备）：每个结果都与参考一致。`,
    notVerified: '引擎未能在真实缓冲区上验证这个调度。',
    stepTable: '以表格列出各步',
    colStep: '步', colPhase: '阶段', colMessages: '消息', colTime: '本步时间', colTotal: '累计时间',
    moreMessages: (n) => `……另有 ${n} 条`,
    aggregated: (k) => `${k} 个设备：太多，无法逐个画出，每一步画成一条柱，高度为其时间；各步的时间和消息数见步骤表。`,
    device: (i) => `设备 ${i}`,
    deviceAt: (i, n, g) => `设备 ${i}：节点 ${n}，本地序号 ${g}`,
    switchName: '交换机',
    nodeName: (n) => `节点 ${n}`,
    localName: (g) => `本地 ${g}`,
    cellTitle: (d, c, who, p) => `设备 ${d}，第 ${c + 1} 块：${who ? `设备 ${who} 的数据` : '尚无数据'}${p >= 0 ? `（最终结果的 ${Math.round(p * 100)}%）` : ''}`,
    msgText: (m, op, size, level) => `${m.src}→${m.dst} ${op} ${size}${level ? `（${level}）` : ''}`,
    working: '引擎计算中…',
    runsIn: (w) => `繁重的请求在${w === 'worker' ? ' Web Worker 中' : '主线程中（file:// 下没有 worker）'}运行。`,
    crossover: '全归约时间与消息大小',
    crossoverCaption: '每种算法的时间都来自引擎，双对数坐标，1 B 到 1 GB；色带标出各算法最快的区间，边界是引擎求出的精确交叉点；圆点是所问的尺寸。',
    size: '消息大小（字节）', time: '时间（秒）',
    winner: '最快',
    exercisePoint: '本题',
    fastestAt: (size, name, time) => `${size} 时：${name}，${time}`,
    simulatedNote: (topo) => `闭式公式假设交换机拓扑（任意两台设备一跳可达）。在“${topo}”这种拓扑上消息会共用链路，所以此图画的是引擎在各采样尺寸上模拟调度的时间，与播放器画的是同一组运行，不标精确的交叉点。`,
    simulatedLimit: (k, max) => `在这种拓扑上，图中每个尺寸都要运行一次引擎的调度，所以只在不超过 ${max} 台设备时画图（当前 ${k} 台）。上方播放器给出的是引擎在这组设置下的时间。`,
    askedSize: '题目的尺寸',
    chartTable: '以表格列出数值',
    algorithm: '算法', collective: '集合通信', devices: '设备数', bytes: '每设备字节数',
    link: '链路', customLink: '自定义 α、β', alpha: 'α（秒）', beta: 'β（字节/秒）', topology: '拓扑',
    alphaUs: 'α（微秒）', betaGBps: 'β（GB/s）', intraLink: '节点内链路', interLink: '节点间链路', devicesValue: (n) => `${n} 台设备`,
    devicesRange: (v, min, max) => `设备数：不能取 ${v}，请输入 ${min} 到 ${max} 之间的整数。`,
    devicesMultiple: (v, g) => `设备数：${v} 不是每节点 GPU 数（${g}）的整数倍；两级拓扑下请输入 ${g}、${2 * g}、${3 * g} ……`,
    gpusRange: (v, min, max) => `每节点 GPU 数：不能取 ${v}，请输入 ${min} 到 ${max} 之间的整数。`,
    alphaRange: (v) => `α：不能取 ${v} 微秒，请输入不小于 0 的微秒数。`,
    betaRange: (v) => `β：不能取 ${v} GB/s，请输入大于 0 的 GB/s 数。`,
    settingsHidden: '设置合法后，播放器和图表会重新显示。',
    nodes: '节点数', gpusPerNode: '每节点 GPU 数',
    explore: '探索', exploreTitle: '探索集合通信步进引擎',
    exploreIntro: '任意集合通信、算法、拓扑和设备数：引擎执行调度，页面把它画出来。设置保存在地址中，链接可以重现此视图。',
    share: '指向这些设置的链接', copied: '地址已包含这些设置。',
    backToExercises: '返回练习',
    topologies: { switch: '交换机（一跳，全对分带宽）', ring: '环（仅相邻）', two_level: '两级（GPU 节点）' },
    algorithms: {
      ring: '环', recursive_doubling: '递归加倍', rabenseifner: 'Rabenseifner（减半 + 加倍）',
      binary_tree: '二项树', double_binary_tree: '双二叉树', in_switch: '交换机内归约',
      hierarchical: '分层', direct: '直接', pairwise: '成对', tree: '树', naive: '朴素',
      linear: '线性', binomial: '二项树', recursive_halving: '递归减半', bruck: 'Bruck',
      scatter_allgather: '分散 + 全收集', binomial_tree: '二项树', reduce_scatter_gather: '归约分散 + 收集',
    },
    collectives: {
      allreduce: '全归约', reduce_scatter: '归约分散', allgather: '全收集', broadcast: '广播',
      reduce: '归约', alltoall: '全交换', sendrecv: '发送/接收',
    },
  },
};

/** The views' words in `lang`. */
export function viewStrings(lang) {
  return own(VIEW_STRINGS, lang) ?? VIEW_STRINGS.en;
}

// The words of the authoring view (`?view=author`, app/author.js) in both languages. The lint
// problems themselves are the engine's (English, with the JSON path of each).
const AUTHOR_STRINGS = {
  en: {
    link: 'Write an exercise',
    title: 'Write an exercise',
    pageTitle: 'commlab · write an exercise',
    intro: 'An exercise is one JSON document (README “Adding an exercise”). The engine checks it as you type; once it loads, below is the card students would see, in English and in Chinese, and a sample of its variants. The draft stays in this browser; Download gives the file to put in exercises/.',
    startFrom: 'Start from',
    startExample: 'the complete example (a ninth exercise)',
    startBlank: 'a blank template',
    startExercise: (n, title) => `exercise ${n}: ${title}`,
    start: 'Put it in the editor',
    openFile: 'Open a file…',
    download: 'Download JSON',
    documentLabel: 'The exercise document (JSON)',
    dropHint: 'Drop a .json file on the text to open it. Lint lists the problems: a click on one selects its place in the text.',
    saved: 'Draft saved in this browser; it comes back when you reopen this page.',
    notSaved: 'The draft cannot be saved in this browser (its storage is full or blocked): download it to keep it.',
    lint: 'Lint',
    checking: 'Checking…',
    clean: 'No problems: the document lints clean.',
    problems: (n) => (n === 1 ? '1 problem:' : `${n} problems:`),
    goTo: 'Select this place in the text',
    wholeDocument: 'the whole document',
    syntax: (line, column) => `Not valid JSON at line ${line}, column ${column}: `,
    lintFailed: 'The engine could not check the document: ',
    preview: 'Preview',
    previewLang: 'Preview language',
    previewNone: 'The preview appears once the document loads.',
    previewClean: 'The card as students will see it. What you check here stays on this page: it is not saved with any progress.',
    previewProblems: 'The document loads, but lint found problems: fix them before students see it.',
    previewStale: (m) => `The engine did not load this version (${m}); the preview shows the last version that loaded.`,
    loadFailed: (m) => `The engine did not load the document: ${m}`,
    variants: 'Variants',
    variantsCaption: (n) => `The variants the first ${n} seeds draw: their parameters and the engine’s answers, as a student would see them.`,
    seed: 'Seed',
    tryIt: 'Try it',
    tryItLabel: (seed) => `Show the variant of seed ${seed} in the preview card`,
    noVariant: (m) => `no variant: ${m}`,
    replaceTitle: 'Replace the draft?',
    replaceText: 'The text in the editor will be replaced. Download it first to keep it.',
    replaceYes: 'Replace',
    replaceNo: 'Keep',
    fileTooLarge: (name, kb) => `${name} is ${kb} KB: an exercise document is at most 256 KB.`,
    startFailed: (m) => `It could not be fetched (${m}); the editor keeps what it holds.`,
  },
  zh: {
    link: '编写练习',
    title: '编写练习',
    pageTitle: 'commlab · 编写练习',
    intro: '一道练习就是一份 JSON 文档（见 README “Adding an exercise”）。输入时引擎即时检查；文档能载入后，下方显示学生将看到的卡片（中英文）和若干参数组。草稿保存在本浏览器中；“下载 JSON”得到的文件放进 exercises/ 即可。',
    startFrom: '从这里开始',
    startExample: '完整示例（第九道练习）',
    startBlank: '空白模板',
    startExercise: (n, title) => `练习 ${n}：${title}`,
    start: '放入编辑器',
    openFile: '打开文件…',
    download: '下载 JSON',
    documentLabel: '练习文档（JSON）',
    dropHint: '把 .json 文件拖到文本框上即可打开。问题列在“检查”下：点一下即在文本中选中所在位置。',
    saved: '草稿已保存在本浏览器中，重新打开本页即可找回。',
    notSaved: '本浏览器无法保存草稿（存储已满或被禁用）：请下载保存。',
    lint: '检查',
    checking: '检查中…',
    clean: '没有问题：文档通过检查。',
    problems: (n) => `${n} 个问题：`,
    goTo: '在文本中选中此处',
    wholeDocument: '整个文档',
    syntax: (line, column) => `JSON 格式错误，第 ${line} 行第 ${column} 列：`,
    lintFailed: '引擎无法检查文档：',
    preview: '预览',
    previewLang: '预览语言',
    previewNone: '文档能载入后，这里显示预览。',
    previewClean: '学生将看到的卡片。在这里检查的答案只留在本页，不会存入任何进度。',
    previewProblems: '文档能载入，但检查发现问题：请在学生看到之前改正。',
    previewStale: (m) => `引擎没有载入这个版本（${m}）；预览显示的是上一个能载入的版本。`,
    loadFailed: (m) => `引擎未能载入文档：${m}`,
    variants: '参数组',
    variantsCaption: (n) => `前 ${n} 个种子抽到的参数组：参数和引擎给出的答案，与学生看到的一致。`,
    seed: '种子',
    tryIt: '试一试',
    tryItLabel: (seed) => `在预览卡片中显示种子 ${seed} 的参数组`,
    noVariant: (m) => `无法抽取：${m}`,
    replaceTitle: '替换草稿？',
    replaceText: '编辑器中的文本将被替换。如需保留，请先下载。',
    replaceYes: '替换',
    replaceNo: '保留',
    fileTooLarge: (name, kb) => `${name} 有 ${kb} KB：练习文档最多 256 KB。`,
    startFailed: (m) => `无法获取（${m}）；编辑器中的内容保持不变。`,
  },
};

/** The authoring view's words in `lang`. */
export function authorStrings(lang) {
  return own(AUTHOR_STRINGS, lang) ?? AUTHOR_STRINGS.en;
}

// Worksheets (?print=1 and printouts, card/worksheet.js): the parameters' heading and the seed
// of a class's variant, which names its row in `commlab exercise key`.
const WORKSHEET_STRINGS = {
  en: { given: 'Given', seed: (n) => `Variant: seed ${n}` },
  zh: { given: '已知', seed: (n) => `变式：种子 ${n}` },
};

/** The worksheet's words in `lang`. */
export function worksheetStrings(lang) {
  return own(WORKSHEET_STRINGS, lang) ?? WORKSHEET_STRINGS.en;
}

// SCORM packages (app/scorm.js, README "SCORM packages"): the course platform's session, what it
// records, its refusals, and the progress it keeps (cmi.suspend_data, at most 4,096 characters).
const SCORM_STRINGS = {
  en: {
    recorded: (score, status) => `Your course platform records this work: score ${score} of 100, ${{
      passed: 'passed', completed: 'completed (answers shown before they were found earn no credit)',
    }[status] ?? 'not yet complete'}.`,
    recording: 'Your course platform keeps this work (SCORM).',
    noApi: 'This activity was opened for a course platform (scorm=1), but no platform answered: no SCORM API was found in the windows around this page, so nothing reaches a gradebook. The exercises work, and your progress stays in this browser.',
    initFailed: (why) => `The course platform did not start the session (LMSInitialize: ${why}), so nothing reaches a gradebook. The exercises work, and your progress stays in this browser.`,
    refused: (call, element, code, text) => `The course platform refused ${call}${element ? ` of ${element}` : ''}: error ${code}${text ? `, “${text}”` : ''}.`,
    threw: (call, element, message) => `The course platform failed on ${call}${element ? ` of ${element}` : ''}: ${message}.`,
    refusedSaved: (what) => `The progress your course platform kept (cmi.suspend_data) was not used: ${what}. This starts afresh, and what you do now is saved in its place.`,
    refusedExercise: (ex, what) => `The progress your course platform kept for exercise ${ex} (cmi.suspend_data) was not used: ${what}. That exercise starts afresh.`,
    savedProblem: (p) => ({
      length: `it is ${p.value} characters long, more than this page writes`,
      json: `it is not the text this page writes (${p.value})`,
      format: 'it is not the text this page writes (no "v": 1)',
      exercise: `it holds exercise ${p.value}, which is not part of this activity`,
      entry: 'its entry is not a list of records',
      current: `the variant it shows (${JSON.stringify(p.value)}) is none of its records`,
      record: `record ${p.record} is not a record`,
      params: `record ${p.record} has parameters that are not this exercise’s`,
      answers: `record ${p.record} has more answers than the exercise`,
      verdicts: `record ${p.record} has verdicts that are not this exercise’s`,
      flags: `record ${p.record} has flags ${JSON.stringify(p.value)} (allowed: 0 to 7)`,
      credit: `record ${p.record} credits answers the exercise does not have`,
      duplicate: `record ${p.value} is a second record of one variant`,
    })[p.field] ?? String(p.field),
    dropped: (d) => `Your course platform keeps at most 4,096 characters of progress. To fit, this is not kept there: ${[
      d.variants && `${d.variants} variant${d.variants === 1 ? '' : 's'} you are not shown`,
      d.unchecked && `${d.unchecked} typed answer${d.unchecked === 1 ? '' : 's'} not yet checked`,
      d.wrong && `${d.wrong} answer${d.wrong === 1 ? '' : 's'} checked wrong`,
      d.correctText && `the text of ${d.correctText} correct answer${d.correctText === 1 ? '' : 's'} (they stay correct)`,
      d.exercises && `${d.exercises} exercise${d.exercises === 1 ? '' : 's'}`,
    ].filter(Boolean).join('; ')}. ${d.exercises ? 'Your score may be lower next time.' : 'Your score is not affected.'} Export progress keeps everything.`,
    noStudent: 'The course platform gave no student id (cmi.core.student_id), so you see the class’s variant, not one of your own.',
  },
  zh: {
    recorded: (score, status) => `课程平台记录本次作答：得分 ${score}（满分 100），${{
      passed: '已通过', completed: '已完成（查看答案前未答对的题不计分）',
    }[status] ?? '尚未完成'}。`,
    recording: '课程平台保存本次作答（SCORM）。',
    noApi: '本活动是为课程平台打开的（scorm=1），但没有平台应答：本页周围的窗口中找不到 SCORM API，成绩不会进入成绩册。练习照常可用，进度保存在本浏览器中。',
    initFailed: (why) => `课程平台没有开始会话（LMSInitialize：${why}），成绩不会进入成绩册。练习照常可用，进度保存在本浏览器中。`,
    refused: (call, element, code, text) => `课程平台拒绝了 ${call}${element ? `（${element}）` : ''}：错误 ${code}${text ? `，“${text}”` : ''}。`,
    threw: (call, element, message) => `课程平台在 ${call}${element ? `（${element}）` : ''} 时出错：${message}。`,
    refusedSaved: (what) => `课程平台保存的进度（cmi.suspend_data）未被采用：${what}。本次从头开始，现在的作答会取代它保存。`,
    refusedExercise: (ex, what) => `课程平台为练习 ${ex} 保存的进度（cmi.suspend_data）未被采用：${what}。该练习从头开始。`,
    savedProblem: (p) => ({
      length: `它有 ${p.value} 个字符，超过本页写入的长度`,
      json: `它不是本页写入的文本（${p.value}）`,
      format: '它不是本页写入的文本（没有 "v": 1）',
      exercise: `其中有练习 ${p.value}，它不属于本活动`,
      entry: '其条目不是记录列表',
      current: `其显示的参数组（${JSON.stringify(p.value)}）不在记录之中`,
      record: `第 ${p.record} 条记录格式不对`,
      params: `第 ${p.record} 条记录的参数不属于本练习`,
      answers: `第 ${p.record} 条记录的答案多于本练习的答案数`,
      verdicts: `第 ${p.record} 条记录的判定不属于本练习`,
      flags: `第 ${p.record} 条记录的标志为 ${JSON.stringify(p.value)}（可取 0 到 7）`,
      credit: `第 ${p.record} 条记录给本练习没有的答案计了分`,
      duplicate: `第 ${p.value} 条记录与另一条是同一参数组`,
    })[p.field] ?? String(p.field),
    dropped: (d) => `课程平台最多保存 4,096 个字符的进度。为放得下，以下内容未存到平台：${[
      d.variants && `${d.variants} 个当前未显示的参数组`,
      d.unchecked && `${d.unchecked} 个尚未检查的答案`,
      d.wrong && `${d.wrong} 个判为错误的答案`,
      d.correctText && `${d.correctText} 个正确答案的文字（仍记为正确）`,
      d.exercises && `${d.exercises} 道练习`,
    ].filter(Boolean).join('；')}。${d.exercises ? '下次得分可能降低。' : '得分不受影响。'}“导出进度”可保存全部内容。`,
    noStudent: '课程平台没有给出学生编号（cmi.core.student_id），因此显示的是全班共用的参数组，而不是你自己的。',
  },
};

/** The SCORM words in `lang`. */
export function scormStrings(lang) {
  return own(SCORM_STRINGS, lang) ?? SCORM_STRINGS.en;
}

// Topics (`?view=topics`, views/topics.js): the page's words and its links' labels, and the
// small link on each exercise card to its section.
const TOPIC_STRINGS = {
  en: {
    button: 'Topics',
    pageTitle: 'commlab · P5 topics',
    title: 'Topics: the lecture section by section',
    intro: 'Every section of P5 in the lecture’s order, with the views and exercises that draw it from the engine. A section without a view yet says so.',
    none: 'No view for this section yet.',
    exerciseLink: (n, title) => `Exercise ${n}: ${title}`,
    cardLink: (section) => `Lecture §${section} on Topics`,
    links: {
      measured: 'Measured against the model: nccl-tests logs fitted to α and β',
      ladder: 'The bandwidth ladder: HBM to NVMe, each level’s bandwidth and α',
      ladderNode: 'Inside a node against outside it (on the bandwidth ladder)',
      broadcast: 'Explore: broadcast (binomial tree), 8 GPUs',
      reduce: 'Explore: reduce (binomial tree), 8 GPUs',
      reduceScatter: 'Explore: reduce-scatter (ring), 8 GPUs',
      allgather: 'Explore: all-gather (ring), 8 GPUs',
      alltoall: 'Explore: all-to-all (pairwise), 8 GPUs',
      ring: 'Explore: ring all-reduce, 8 GPUs on NVLink 4',
      recursiveDoubling: 'Explore: recursive doubling, 8 GPUs',
      rabenseifner: 'Explore: Rabenseifner, 8 GPUs',
      tree: 'Explore: binary tree, 8 GPUs, 1 KB',
      doubleTree: 'Explore: double binary tree (NCCL), 8 GPUs',
      crossover64: 'Explore: 64 GPUs on InfiniBand, the algorithms’ crossovers',
      inSwitch: 'Explore: in-switch reduction (NVLS, SHARP)',
      nvls: 'NVLS beside the ring (on the NCCL page)',
      hierarchical: 'Explore: hierarchical all-reduce, 4 nodes × 8 GPUs',
      nccl: 'NCCL: protocols LL, LL128 and Simple, NVLS, and the tuner’s choice',
      ncclExplore: 'Explore: NCCL’s (algorithm, protocol) chart beside the player',
      chunked: 'Explore: chunked overlap timeline',
      twoBatch: 'Explore: two-batch overlap timeline',
      author: 'Write an exercise of your own',
    },
  },
  zh: {
    button: '章节',
    pageTitle: 'commlab · P5 章节',
    title: '章节：按讲义逐节浏览',
    intro: '按讲义顺序列出 P5 的每一节，以及由引擎绘制该节内容的视图和练习。尚无视图的小节会注明。',
    none: '本节暂无视图。',
    exerciseLink: (n, title) => `练习 ${n}：${title}`,
    cardLink: (section) => `讲义 §${section}（章节页）`,
    links: {
      measured: '实测与模型对照：把 nccl-tests 日志拟合成 α 和 β',
      ladder: '带宽阶梯：从 HBM 到 NVMe，各层的带宽和 α',
      ladderNode: '节点内与节点外的带宽对比（在带宽阶梯页）',
      broadcast: '探索：广播（二项树），8 块 GPU',
      reduce: '探索：归约（二项树），8 块 GPU',
      reduceScatter: '探索：归约分散（ring），8 块 GPU',
      allgather: '探索：全收集（ring），8 块 GPU',
      alltoall: '探索：全交换（成对），8 块 GPU',
      ring: '探索：ring all-reduce，8 块 GPU，NVLink 4',
      recursiveDoubling: '探索：递归加倍，8 块 GPU',
      rabenseifner: '探索：Rabenseifner，8 块 GPU',
      tree: '探索：二叉树，8 块 GPU，1 KB',
      doubleTree: '探索：双二叉树（NCCL），8 块 GPU',
      crossover64: '探索：64 块 GPU 走 InfiniBand，各算法的交叉点',
      inSwitch: '探索：交换机内归约（NVLS、SHARP）',
      nvls: 'NVLS 与 ring 对比（在 NCCL 页）',
      hierarchical: '探索：分层 all-reduce，4 个节点 × 8 块 GPU',
      nccl: 'NCCL：LL、LL128、Simple 三种协议，NVLS，以及调优器的选择',
      ncclExplore: '探索：播放器旁的 NCCL（算法，协议）图',
      chunked: '探索：切块流水的时间线',
      twoBatch: '探索：两批交错的时间线',
      author: '自己编写一道练习',
    },
  },
};

/** The Topics page's words in `lang`. */
export function topicStrings(lang) {
  return own(TOPIC_STRINGS, lang) ?? TOPIC_STRINGS.en;
}

// The bandwidth ladder (`?view=ladder`, views/ladder.js, P5 §2.1 and §2.3).
const LADDER_STRINGS = {
  en: {
    title: 'The bandwidth ladder (§2.1)',
    intro: 'Every link of the lecture on its level of the hierarchy, from HBM inside a GPU to an NVMe SSD: its effective bandwidth per GPU and direction (nominal × efficiency) and its assumed α, both on log scales. Each sentence below is the engine’s comparison of the two numbers.',
    efficiency: 'Efficiency (effective ÷ nominal)',
    efficiencyRange: (v) => `Efficiency: ${v === '' ? 'nothing typed' : `${v} is outside the allowed range`}; allowed 0.01 to 1. Nothing is drawn meanwhile.`,
    caption: 'Bandwidth (left) and α (right) of each link, grouped by level, log scales.',
    pictureLabel: 'The links’ bandwidth and α on log scales; the same figures are in the table below.',
    betaAxis: 'effective bandwidth (log)', alphaAxis: 'α (log)',
    levels: { gpu: 'Inside a GPU', nvlink_domain: 'In an NVLink domain', node: 'In a node (PCIe)', network: 'Between nodes', storage: 'Storage' },
    claimsTitle: 'What the lecture says, as the engine finds it',
    faster: (a, b, r, x, y) => `${a} is ${r}× faster than ${b}: ${x} against ${y}.`,
    same: (a, b, x) => `${a} and ${b} are equally fast: ${x} each.`,
    compareA: 'Compare', compareB: 'with',
    nodeTitle: 'Inside a node against outside it (§2.3)',
    node: 'Node',
    nodeNote: (n) => `${n.label}: ${n.gpus} GPUs × ${n.intra} give ${n.inside} per direction inside the node (${n.insideEff} effective); ${n.nics} NICs × ${n.nic} give ${n.outside} (${n.outsideEff}) to the outside: `
      + (n.equal ? 'the same inside and out.' : n.faster === 'inside' ? `inside is ${n.ratio}× outside.` : `outside is ${n.ratio}× inside.`),
    table: 'The links as a table',
    colLink: 'Link', colLevel: 'Level', colNominal: 'Nominal', colEffective: 'Effective', colAlpha: 'α', colHalf: 'n½',
    failed: 'The engine could not answer for these settings: change a setting.',
  },
  zh: {
    title: '带宽阶梯（§2.1）',
    intro: '讲义里的每种链路按互连层次排列，从 GPU 内部的 HBM 到 NVMe SSD：每块 GPU 每方向的有效带宽（标称 × 效率）和假设的 α，都用对数刻度。下面每句话都是引擎对两个数的比较。',
    efficiency: '效率（有效 ÷ 标称）',
    efficiencyRange: (v) => `效率：${v === '' ? '没有输入' : `${v} 超出允许范围`}；允许 0.01 到 1。在此之前不绘图。`,
    caption: '各链路的带宽（左）和 α（右），按层次分组，对数刻度。',
    pictureLabel: '各链路的带宽和 α（对数刻度）；同样的数字见下方表格。',
    betaAxis: '有效带宽（对数）', alphaAxis: 'α（对数）',
    levels: { gpu: 'GPU 内部', nvlink_domain: 'NVLink 域内', node: '节点内（PCIe）', network: '节点之间', storage: '存储' },
    claimsTitle: '讲义的说法，由引擎算出',
    faster: (a, b, r, x, y) => `${a} 比 ${b} 快 ${r} 倍：${x} 对 ${y}。`,
    same: (a, b, x) => `${a} 和 ${b} 一样快：各 ${x}。`,
    compareA: '比较', compareB: '和',
    nodeTitle: '节点内与节点外（§2.3）',
    node: '节点',
    nodeNote: (n) => `${n.label}：${n.gpus} 块 GPU × ${n.intra}，节点内每方向合计 ${n.inside}（有效 ${n.insideEff}）；${n.nics} 张网卡 × ${n.nic}，对外合计 ${n.outside}（有效 ${n.outsideEff}）：`
      + (n.equal ? '内外一样。' : n.faster === 'inside' ? `节点内是节点外的 ${n.ratio} 倍。` : `节点外是节点内的 ${n.ratio} 倍。`),
    table: '链路数据表',
    colLink: '链路', colLevel: '层次', colNominal: '标称', colEffective: '有效', colAlpha: 'α', colHalf: 'n½',
    failed: '引擎无法按这些设置作答：请修改设置。',
  },
};

/** The bandwidth ladder's words in `lang`. */
export function ladderStrings(lang) {
  return own(LADDER_STRINGS, lang) ?? LADDER_STRINGS.en;
}

// NCCL (`?view=nccl`, views/nccl.js, P5 §5.6): the ring's protocols, NVLS, the tuner's choice.
const NCCL_STRINGS = {
  en: {
    title: 'NCCL: protocols, NVLS and the tuner’s choice (§5.6)',
    intro: 'One algorithm, three ways of handing data to the next GPU. LL and LL128 put a flag into the data itself, so the receiver knows at once that it has arrived (low latency) but part of every store is flag (less bandwidth); Simple writes plain data and signals with a flag after a memory fence (full bandwidth, more latency a hop). Which is cheapest depends on the message size, as for the algorithms of §5.3.',
    devices: 'GPUs', bytes: 'Message size (bytes)', link: 'Link',
    devicesRange: (v) => `GPUs: ${v === '' ? 'nothing typed' : `${v} is not allowed`}; allowed a whole number from 2 to 1,024. Nothing is drawn meanwhile.`,
    bytesRange: (v) => `Message size: ${v === '' ? 'nothing typed' : `${v} B is outside the allowed range`}; allowed 1 B to 1 GB. Nothing is drawn meanwhile.`,
    badSetting: (p) => `The address’s ${p.setting}=${p.value} cannot be used (${{ devices: 'a whole number from 2 to 1,024', bytes: '1 B to 1 GB', link: 'a link of the catalogue' }[p.setting]}); the lecture’s value is shown.`,
    chartTitle: 'Ring all-reduce: time against message size for each protocol',
    chartCaption: 'The engine’s NCCL model of the ring alone, log-log; the shaded bands and the lines are the exact sizes where the cheapest protocol changes (the engine’s crossover op).',
    protocolsTitle: 'What each protocol is',
    flagged: (p) => `each ${p.unit} unit it writes carries ${p.payload} of data and a ${p.flag} flag, so ${p.share} of the link’s ${p.beta} carries payload (${p.bw}); the receiver reads the flag with the data, so a hop costs ${p.hop} (${p.base} a call).`,
    fenced: (p) => `plain data at ${p.share} of the link’s ${p.beta} (${p.bw}); the receiver learns that it arrived from a flag written after a memory fence, once a chunk, so a hop costs ${p.hop} (${p.base} a call).`,
    protocolTable: 'The protocols as a table',
    colProtocol: 'Protocol', colUnit: 'Unit', colPayload: 'Data', colFlag: 'Flag', colShare: 'Payload share', colBandwidth: 'Bandwidth', colHop: 'Latency a hop', colBase: 'Latency a call',
    fence: 'fence + flag a chunk',
    nvlsTitle: 'NVLS: reduction in the switch (§5.4)',
    nvlsNote: 'NVLS (NVLink SHARP) is NCCL’s in-switch reduction: each GPU sends its data to the NVSwitch once and receives the sum once. Below, the engine’s in-switch all-reduce beside the ring, the point marked at the size picked above.',
    choiceTitle: 'NCCL’s choice at this size',
    choiceNote: (size, k, pair, time, ringProtocol, ringTime) => `At ${size} on ${k} GPUs NCCL’s tuner picks ${pair}: ${time}. Among the ring’s protocols alone the cheapest is ${ringProtocol}: ${ringTime}.`,
    choiceCaption: 'Every (algorithm, protocol) pair the tuner weighs, as the engine models it',
    colPair: 'Algorithm · protocol', colTime: 'Time', colLatency: 'Latency',
    failed: 'The engine could not answer for these settings: change a setting.',
  },
  zh: {
    title: 'NCCL：协议、NVLS 与调优器的选择（§5.6）',
    intro: '同一个算法，把数据交给下一块 GPU 有三种方式。LL 和 LL128 把标志位放进数据本身，接收方一读就知道数据到了（延迟低），但每次写入都有一部分是标志（带宽打折）；Simple 写普通数据，在内存屏障之后再用一个标志通知（带宽满，每一跳延迟更高）。哪种最便宜取决于消息大小，和 §5.3 选算法是同一个道理。',
    devices: 'GPU 数', bytes: '消息大小（字节）', link: '链路',
    devicesRange: (v) => `GPU 数：${v === '' ? '没有输入' : `${v} 不允许`}；允许 2 到 1,024 的整数。在此之前不绘图。`,
    bytesRange: (v) => `消息大小：${v === '' ? '没有输入' : `${v} B 超出允许范围`}；允许 1 B 到 1 GB。在此之前不绘图。`,
    badSetting: (p) => `地址中的 ${p.setting}=${p.value} 无法使用（${{ devices: '2 到 1,024 的整数', bytes: '1 B 到 1 GB', link: '链路目录中的链路' }[p.setting]}）；显示的是讲义的值。`,
    chartTitle: 'ring all-reduce：各协议的时间与消息大小',
    chartCaption: '引擎的 NCCL 模型（只看 ring），双对数坐标；色带和竖线是最便宜的协议发生变化的精确大小（crossover 操作）。',
    protocolsTitle: '每种协议是什么',
    flagged: (p) => `每个 ${p.unit} 的写入单元里有 ${p.payload} 数据和 ${p.flag} 标志，所以链路 ${p.beta} 中只有 ${p.share} 用来传数据（${p.bw}）；接收方连同数据一起读到标志，所以每一跳 ${p.hop}（每次调用 ${p.base}）。`,
    fenced: (p) => `写普通数据，用到链路 ${p.beta} 的 ${p.share}（${p.bw}）；接收方靠内存屏障之后写入的标志得知数据已到，每块一次，所以每一跳 ${p.hop}（每次调用 ${p.base}）。`,
    protocolTable: '协议数据表',
    colProtocol: '协议', colUnit: '单元', colPayload: '数据', colFlag: '标志', colShare: '数据占比', colBandwidth: '带宽', colHop: '每跳延迟', colBase: '每次调用延迟',
    fence: '屏障 + 每块一个标志',
    nvlsTitle: 'NVLS：在交换机里归约（§5.4）',
    nvlsNote: 'NVLS（NVLink SHARP）是 NCCL 的交换机内归约：每块 GPU 把数据发给 NVSwitch 一次、再收一次结果。下图是引擎算出的交换机内 all-reduce 与 ring 的对比，标出的点是上面所选大小下的交换机内归约。',
    choiceTitle: '这个大小下 NCCL 的选择',
    choiceNote: (size, k, pair, time, ringProtocol, ringTime) => `${size}、${k} 块 GPU 时，NCCL 调优器选择 ${pair}：${time}。只看 ring 的三种协议，最便宜的是 ${ringProtocol}：${ringTime}。`,
    choiceCaption: '调优器权衡的每个（算法，协议）组合，按引擎的模型',
    colPair: '算法 · 协议', colTime: '时间', colLatency: '延迟',
    failed: '引擎无法按这些设置作答：请修改设置。',
  },
};

/** The NCCL view's words in `lang`. */
export function ncclStrings(lang) {
  return own(NCCL_STRINGS, lang) ?? NCCL_STRINGS.en;
}
