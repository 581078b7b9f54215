// The AgentDock's own stylesheet: every rule is scoped under `.pling-react-dock`, so it neither depends on nor
// leaks into the host's CSS. Colours are custom properties a host can override on the dock (or through className).

export const DOCK_CLASS = 'pling-react-dock';

export const DOCK_CSS = `
.${DOCK_CLASS} {
  --pling-bg: #fff; --pling-fg: #1f2328; --pling-muted: #656d76; --pling-border: #d0d7de;
  --pling-accent: #0969da; --pling-danger: #cf222e; --pling-user: #ddf4ff; --pling-assistant: #f6f8fa;
  box-sizing: border-box; display: flex; flex-direction: column; gap: 8px;
  width: 360px; max-width: calc(100vw - 32px); max-height: min(560px, calc(100vh - 32px));
  padding: 12px; background: var(--pling-bg); color: var(--pling-fg);
  border: 1px solid var(--pling-border); border-radius: 10px; box-shadow: 0 8px 24px rgb(0 0 0 / 0.15);
  font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif;
}
.${DOCK_CLASS}[data-placement="fixed"] { position: fixed; right: 16px; bottom: 16px; z-index: 2147483000; }
.${DOCK_CLASS}[data-placement="inline"] { width: 100%; max-width: none; max-height: 100%; box-shadow: none; }
.${DOCK_CLASS} *, .${DOCK_CLASS} *::before, .${DOCK_CLASS} *::after { box-sizing: inherit; }
.${DOCK_CLASS} header { display: flex; align-items: center; justify-content: space-between; gap: 8px; }
.${DOCK_CLASS} h2 { margin: 0; font-size: 15px; font-weight: 600; }
.${DOCK_CLASS} button {
  font: inherit; padding: 3px 10px; border: 1px solid var(--pling-border); border-radius: 6px;
  background: var(--pling-assistant); color: var(--pling-fg); cursor: pointer;
}
.${DOCK_CLASS} button:disabled { opacity: 0.5; cursor: default; }
.${DOCK_CLASS} [data-pling="send"], .${DOCK_CLASS} [data-pling="approve"] {
  background: var(--pling-accent); border-color: var(--pling-accent); color: #fff;
}
.${DOCK_CLASS} [data-pling="messages"] {
  flex: 1 1 auto; min-height: 80px; overflow-y: auto; display: flex; flex-direction: column; gap: 6px;
}
.${DOCK_CLASS} [data-pling="message"] {
  max-width: 90%; padding: 6px 10px; border-radius: 8px; white-space: pre-wrap; overflow-wrap: anywhere;
}
.${DOCK_CLASS} [data-pling="message"][data-role="user"] { align-self: flex-end; background: var(--pling-user); }
.${DOCK_CLASS} [data-pling="message"][data-role="assistant"] { align-self: flex-start; background: var(--pling-assistant); }
.${DOCK_CLASS} [data-pling="message"][data-streaming="true"] { opacity: 0.8; }
.${DOCK_CLASS} [data-pling="speaker"] { display: block; font-size: 11px; color: var(--pling-muted); }
.${DOCK_CLASS} [data-pling="empty"], .${DOCK_CLASS} [data-pling="no-operations"] { color: var(--pling-muted); }
.${DOCK_CLASS} [data-pling="not-configured"], .${DOCK_CLASS} [data-pling="error"] {
  padding: 6px 10px; border-radius: 6px; border: 1px solid var(--pling-danger); color: var(--pling-danger);
}
.${DOCK_CLASS} [data-pling="notice"] { padding: 6px 10px; border-radius: 6px; background: var(--pling-assistant); }
.${DOCK_CLASS} [data-pling="confirmation"], .${DOCK_CLASS} [data-pling="handoff"] {
  display: flex; flex-direction: column; gap: 4px;
  padding: 8px 10px; border: 1px solid var(--pling-accent); border-radius: 8px;
}
.${DOCK_CLASS} [data-pling="confirmation"][data-danger="true"] { border-color: var(--pling-danger); }
.${DOCK_CLASS} [data-pling="danger"] { color: var(--pling-danger); font-weight: 600; }
.${DOCK_CLASS} pre {
  margin: 0; padding: 4px 6px; max-height: 120px; overflow: auto;
  background: var(--pling-assistant); border-radius: 4px; font-size: 12px;
}
.${DOCK_CLASS} [data-pling="actions"] { display: flex; gap: 6px; }
.${DOCK_CLASS} [data-pling="operations"] h3 { margin: 0 0 2px; font-size: 12px; color: var(--pling-muted); }
.${DOCK_CLASS} [data-pling="operations"] ol { margin: 0; padding: 0; list-style: none; max-height: 96px; overflow-y: auto; }
.${DOCK_CLASS} [data-pling="operation"] { font-size: 12px; }
.${DOCK_CLASS} [data-pling="operation"]::before { content: "• "; color: var(--pling-muted); }
.${DOCK_CLASS} [data-pling="operation"][data-status="ok"]::before { color: #1a7f37; }
.${DOCK_CLASS} [data-pling="operation"][data-status="failed"]::before,
.${DOCK_CLASS} [data-pling="operation"][data-status="blocked"]::before { color: var(--pling-danger); }
.${DOCK_CLASS} [data-pling="operation"][data-status="running"]::before { color: var(--pling-accent); }
.${DOCK_CLASS} form { display: flex; gap: 6px; align-items: flex-end; }
.${DOCK_CLASS} textarea {
  flex: 1; min-height: 38px; max-height: 120px; resize: vertical; padding: 6px 8px; font: inherit;
  border: 1px solid var(--pling-border); border-radius: 6px; background: var(--pling-bg); color: var(--pling-fg);
}
`;
