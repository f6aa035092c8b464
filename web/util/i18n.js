// The page's own words in English and Chinese. Exercise texts come from the engine's documents.

const STRINGS = {
  en: {
    title: 'commlab · P5 exercises',
    subtitle: 'How long communication takes in a GPU cluster: the eight exercises of lecture P5, checked by the engine.',
    otherLanguage: '中文',
    otherLanguageName: 'Switch to Chinese',
    loading: 'Loading the engine…',
    engineFailed: 'The engine could not be loaded: ',
    engineError: 'The engine answered with an error: ',
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
    importFailed: 'That file is not a commlab progress file: ',
    corruptState: (key) => `Saved progress could not be read, so it was set aside (stored under "${key}") and the page started fresh.`,
    storageUnavailable: 'This page cannot save progress here (storage is blocked or partitioned); use Export to keep it.',
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
    choose: 'Choose…',
    allCorrect: 'All correct.',
    showAll: 'All exercises',
    skip: 'Skip to the exercises',
    tools: 'Progress and language',
    bars: 'Compared',
    timelineCaption: 'Two tokens of every micro-batch through the pipeline (engine simulation): rows are stages, colours micro-batches.',
    timelineTitle: (p, m) => `Pipeline of ${p} stages with ${m} micro-batches`,
    timelineAxis: (x) => `time →   token interval ${x}`,
    calcHidden: 'These are the exercise’s own values, so the results are its answers: they show after your first check. Change a parameter to explore.',
    reveal: 'Show them anyway',
    words: { yes: 'yes', no: 'no' },
  },
  zh: {
    title: 'commlab · P5 练习',
    subtitle: 'GPU 集群里通信要多久：前置讲 P5 的八道练习，由引擎即时判分。',
    otherLanguage: 'English',
    otherLanguageName: '切换到英文',
    loading: '正在加载引擎…',
    engineFailed: '引擎加载失败：',
    engineError: '引擎返回错误：',
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
    importFailed: '这不是 commlab 的进度文件：',
    corruptState: (key) => `保存的进度无法读取，已另存（键名 "${key}"），页面从头开始。`,
    storageUnavailable: '此处无法保存进度（存储被禁用或分区），请用“导出进度”保存。',
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
    choose: '请选择…',
    allCorrect: '全部正确。',
    showAll: '全部练习',
    skip: '跳到练习',
    tools: '进度与语言',
    bars: '对比',
    timelineCaption: '每个微批的两个 token 走过流水线（引擎模拟）：每行一段，颜色代表微批。',
    timelineTitle: (p, m) => `${p} 段流水线、${m} 个微批`,
    timelineAxis: (x) => `时间 →   token 间隔 ${x}`,
    calcHidden: '这是练习本身的参数，结果就是答案：检查一次之后显示。改一个参数就能探索。',
    reveal: '仍然显示',
    words: { yes: '能', no: '不能' },
  },
};

/** The UI strings of `lang` ("en" or "zh"). */
export function strings(lang) {
  return STRINGS[lang] ?? STRINGS.en;
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

/** Picks `text[lang]` from a {en, zh} object, falling back to the other language. */
export function pick(text, lang) {
  if (text == null || typeof text !== 'object' || Array.isArray(text)) return text ?? '';
  return text[lang] ?? text.en ?? text.zh ?? '';
}
