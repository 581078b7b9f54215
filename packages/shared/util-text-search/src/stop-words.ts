// Words that say nothing about what a message is about: left out of queries (they stay in the index, which is
// what BM25 expects). English function words after stemming, and the Chinese function words and single
// characters that ICU cuts out of almost every sentence.
import { stemmer } from 'stemmer';

const ENGLISH = `a about above after again against all am an and any are as at be because been before being below
between both but by can could did do does doing down during each few for from further had has have having he her
here hers herself him himself his how i if in into is it its itself just let me more most my myself no nor not now
of off on once only or other our ours ourselves out over own same she should so some such than that the their
theirs them themselves then there these they this those through to too under until up very was we were what when
where which while who whom why will with would you your yours yourself yourselves yes ok okay oh hi hello hey
really also got get like know think well yeah thing things something anything one s t don didn doesn isn wasn
aren won wouldn couldn shouldn ll re ve d m`;

const CHINESE = `的 了 是 我 你 他 她 它 们 我们 你们 他们 她们 这 那 这个 那个 这些 那些 在 有 和 与 也 都 就 还 又 吗
呢 吧 啊 呀 哦 嗯 哈 啦 么 什么 怎么 怎样 为什么 哪 哪里 哪个 谁 个 之 而 及 或 被 把 让 给 对 从 到 向 于 以 为
一 不 没 没有 很 太 更 最 会 能 要 想 说 去 来 看 上 下 里 中 吗 得 地 着 过 自己 一下 一个 一些 可以 可能 就是 还是
但是 因为 所以 如果 然后 已经 现在 时候 知道 觉得 记得 请问 请 告诉 问 她的 我的 你的 他的`;

export const STOP_WORDS: ReadonlySet<string> = new Set([
  ...ENGLISH.split(/\s+/).map((word) => stemmer(word)),
  ...ENGLISH.split(/\s+/),
  ...CHINESE.split(/\s+/),
]);

/** Characters of Chinese function words: a CJK term made of these only (说的, 是在, 在哪) is a stop word too. */
const FUNCTION_CHARS = new Set(
  Array.from(
    '的了是在说我你他她它们这那个吗呢吧啊呀哦嗯么哪里谁就都也还又和与被把让给对从到向于以为一不没很太会能要想去来看上下中得地着过',
  ),
);

export function isStopWord(term: string): boolean {
  if (STOP_WORDS.has(term)) return true;
  const chars = Array.from(term);
  return chars.length <= 3 && /\p{Script=Han}/u.test(term) && chars.every((char) => FUNCTION_CHARS.has(char));
}
