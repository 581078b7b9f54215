// A coded error that reached the page as one line of text (a command's answer, a describeError string): the sentence
// and the code it ends with in the brackets of its language (「…。（AALIS_X）」, "…. (AALIS_X)"), told apart so the
// page shows the code in small print.

const TRAILING_CODE = /^([\s\S]*?)(?:（(AALIS_[A-Z0-9_]+)）| \((AALIS_[A-Z0-9_]+)\))\s*$/;

export interface ErrorLine {
  message: string;
  /** Absent when the text ends with no code. */
  code?: string;
}

export function splitErrorCode(text: string): ErrorLine {
  const match = TRAILING_CODE.exec(text);
  if (!match) return { message: text };
  const code = match[2] ?? match[3];
  return code ? { message: match[1]!, code } : { message: text };
}
