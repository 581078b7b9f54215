// Copies text to the clipboard: the Clipboard API where the page is a secure context (127.0.0.1, localhost, HTTPS),
// else a hidden textarea and execCommand('copy') — a WebUI opened by a LAN address over plain HTTP has no
// navigator.clipboard, and a Copy button that silently does nothing there would be worse than none.
export async function copyText(text: string): Promise<boolean> {
  if (navigator.clipboard && window.isSecureContext) {
    try {
      await navigator.clipboard.writeText(text);
      return true;
    } catch {
      // refused (no focus, no permission): the fallback below may still work
    }
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.append(area);
  const focused = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  area.select();
  try {
    return document.execCommand('copy');
  } catch {
    return false;
  } finally {
    area.remove();
    focused?.focus();
  }
}
