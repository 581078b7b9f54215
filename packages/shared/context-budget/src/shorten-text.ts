// Cuts a text to its first n characters (UTF-16 code units) without splitting a surrogate pair, so a shortened
// message is still valid Unicode when serialised for the provider.

export function shortenText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  let end = Math.max(0, maxChars);
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return text.slice(0, end);
}
