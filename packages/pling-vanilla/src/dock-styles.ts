// The DOM dock's stylesheet: small, self-contained, every rule scoped under `.pling-dock` (class prefix `pling-`),
// injected once per document as <style data-pling-style>. Colours come from custom properties a host may override.

export const DOCK_STYLE_ATTRIBUTE = 'data-pling-style';

export const DOCK_CSS = `
.pling-dock {
  --pling-accent: #2563eb;
  --pling-danger: #b91c1c;
  --pling-border: #d4d4d8;
  --pling-muted: #71717a;
  --pling-surface: #ffffff;
  --pling-soft: #f4f4f5;
  box-sizing: border-box;
  display: flex;
  flex-direction: column;
  gap: 8px;
  width: 100%;
  max-height: 100%;
  overflow-y: auto;
  padding: 10px;
  border: 1px solid var(--pling-border);
  border-radius: 10px;
  background: var(--pling-surface);
  color: #18181b;
  font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif;
  text-align: start;
}
.pling-dock *, .pling-dock *::before, .pling-dock *::after { box-sizing: border-box; }
.pling-dock.pling-floating {
  position: fixed;
  right: 16px;
  bottom: 16px;
  z-index: 2147483000;
  width: min(380px, calc(100vw - 32px));
  max-height: min(640px, calc(100vh - 32px));
  box-shadow: 0 10px 30px rgba(0, 0, 0, 0.18);
}
.pling-dock > * { flex: 0 0 auto; }
.pling-dock .pling-header {
  position: sticky;
  top: 0;
  z-index: 1;
  margin: -10px -10px 0;
  padding: 10px 10px 6px;
  background: var(--pling-surface);
}
.pling-dock .pling-header { display: flex; align-items: center; justify-content: space-between; gap: 8px; }
.pling-dock .pling-title { margin: 0; font-size: 15px; font-weight: 600; }
.pling-dock button {
  padding: 4px 10px;
  border: 1px solid var(--pling-border);
  border-radius: 6px;
  background: var(--pling-soft);
  color: inherit;
  font: inherit;
  cursor: pointer;
}
.pling-dock button:disabled { opacity: 0.5; cursor: default; }
.pling-dock .pling-primary { border-color: var(--pling-accent); background: var(--pling-accent); color: #fff; }
.pling-dock .pling-danger-button { border-color: var(--pling-danger); color: var(--pling-danger); }
.pling-dock .pling-messages {
  display: flex;
  flex-direction: column;
  gap: 6px;
  min-height: 80px;
  overflow-y: auto;
  flex: 1 1 auto;
}
/* Header and input stay in view; when confirmations pile up, the chat shrinks first, then the panel scrolls. */
.pling-dock .pling-empty, .pling-dock .pling-muted { margin: 0; color: var(--pling-muted); }
.pling-dock .pling-message { max-width: 90%; padding: 6px 10px; border-radius: 8px; white-space: pre-wrap; overflow-wrap: anywhere; }
.pling-dock .pling-message[data-role="user"] { align-self: flex-end; background: var(--pling-accent); color: #fff; }
.pling-dock .pling-message[data-role="assistant"] { align-self: flex-start; background: var(--pling-soft); }
.pling-dock .pling-message[data-streaming="true"] { opacity: 0.85; }
.pling-dock .pling-speaker { display: block; font-size: 11px; opacity: 0.75; }
.pling-dock .pling-banner { margin: 0; padding: 6px 10px; border-radius: 6px; background: var(--pling-soft); }
.pling-dock .pling-error { background: #fef2f2; color: var(--pling-danger); }
.pling-dock .pling-detail { margin: 2px 0 0; overflow-wrap: anywhere; }
.pling-dock .pling-error-code { margin-inline-end: 6px; font-weight: 600; }
.pling-dock .pling-card { padding: 8px 10px; border: 1px solid var(--pling-border); border-radius: 8px; }
.pling-dock .pling-card p { margin: 0 0 4px; }
.pling-dock .pling-card[data-danger="true"] { border-color: var(--pling-danger); }
.pling-dock .pling-arguments {
  margin: 0 0 6px;
  padding: 6px;
  max-height: 120px;
  overflow: auto;
  border-radius: 4px;
  background: var(--pling-soft);
  font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace;
  white-space: pre-wrap;
}
.pling-dock .pling-actions { display: flex; gap: 6px; justify-content: flex-end; }
.pling-dock .pling-operations h3 { margin: 0 0 4px; font-size: 12px; font-weight: 600; color: var(--pling-muted); }
.pling-dock .pling-operations ul { margin: 0; padding: 0; list-style: none; max-height: 96px; overflow-y: auto; font-size: 12px; }
.pling-dock .pling-operation::before { content: "•"; margin-inline-end: 6px; }
.pling-dock .pling-operation[data-status="running"]::before { content: "…"; }
.pling-dock .pling-operation[data-status="ok"]::before { content: "✓"; color: #15803d; }
.pling-dock .pling-operation[data-status="failed"]::before,
.pling-dock .pling-operation[data-status="blocked"]::before { content: "✕"; color: var(--pling-danger); }
.pling-dock .pling-form {
  position: sticky;
  bottom: 0;
  display: flex;
  flex-direction: column;
  gap: 6px;
  margin: 0 -10px -10px;
  padding: 6px 10px 10px;
  background: var(--pling-surface);
}
.pling-dock .pling-input {
  width: 100%;
  min-height: 44px;
  resize: vertical;
  padding: 6px 8px;
  border: 1px solid var(--pling-border);
  border-radius: 6px;
  font: inherit;
}
`;

/** Adds the stylesheet to `document` unless a dock already did. */
export function injectDockStyles(document: Document): void {
  if (document.querySelector(`style[${DOCK_STYLE_ATTRIBUTE}]`)) return;
  const style = document.createElement('style');
  style.setAttribute(DOCK_STYLE_ATTRIBUTE, '');
  style.textContent = DOCK_CSS;
  document.head.append(style);
}
