// The dock's own small stylesheet, injected once per document. Every rule is under `.pling-vue-dock`, so the dock
// neither depends on nor leaks into the host page's CSS.

export const DOCK_STYLE_ATTRIBUTE = 'data-pling-style';
const STYLE_NAME = 'vue';

export const DOCK_CSS = `
.pling-vue-dock{box-sizing:border-box;display:flex;flex-direction:column;gap:8px;padding:12px;font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1f2328;background:#fff;border:1px solid #d0d7de;border-radius:10px;box-shadow:0 8px 24px rgba(31,35,40,.16);overflow:hidden}
.pling-vue-dock *,.pling-vue-dock *::before,.pling-vue-dock *::after{box-sizing:border-box}
.pling-vue-dock--fixed{position:fixed;right:16px;bottom:16px;z-index:2147483000;width:min(380px,calc(100vw - 32px));max-height:min(640px,calc(100vh - 32px))}
.pling-vue-dock--inline{width:100%;height:100%}
.pling-vue-dock .pling-vue-header{display:flex;align-items:center;justify-content:space-between;gap:8px}
.pling-vue-dock .pling-vue-title{margin:0;font-size:15px;font-weight:600}
.pling-vue-dock .pling-vue-subheading{margin:4px 0;font-size:12px;font-weight:600;color:#59636e;text-transform:none}
.pling-vue-dock .pling-vue-body{flex:1 1 auto;min-height:0;overflow-y:auto;display:flex;flex-direction:column;gap:8px}
.pling-vue-dock .pling-vue-messages{display:flex;flex-direction:column;gap:6px}
.pling-vue-dock .pling-vue-message{padding:6px 8px;border-radius:8px;background:#f6f8fa;white-space:pre-wrap;overflow-wrap:anywhere}
.pling-vue-dock .pling-vue-message--user{align-self:flex-end;background:#ddf4ff}
.pling-vue-dock .pling-vue-message[data-streaming="true"]{opacity:.8}
.pling-vue-dock .pling-vue-who{display:block;font-size:11px;color:#59636e}
.pling-vue-dock .pling-vue-muted{margin:0;color:#59636e}
.pling-vue-dock .pling-vue-alert,.pling-vue-dock .pling-vue-error{margin:0;padding:6px 8px;border-radius:8px;background:#ffebe9;color:#82071e}
.pling-vue-dock .pling-vue-alert p{margin:4px 0 0}
.pling-vue-dock .pling-vue-notice{margin:0;padding:6px 8px;border-radius:8px;background:#fff8c5}
.pling-vue-dock .pling-vue-card{padding:8px;border:1px solid #d0d7de;border-radius:8px}
.pling-vue-dock .pling-vue-card p{margin:0 0 4px}
.pling-vue-dock .pling-vue-arguments{margin:0 0 6px;padding:6px;max-height:120px;overflow:auto;background:#f6f8fa;border-radius:6px;font-size:12px}
.pling-vue-dock .pling-vue-actions{display:flex;gap:6px;justify-content:flex-end}
.pling-vue-dock .pling-vue-button{font:inherit;padding:4px 10px;border:1px solid #d0d7de;border-radius:6px;background:#f6f8fa;color:inherit;cursor:pointer}
.pling-vue-dock .pling-vue-button:disabled{opacity:.5;cursor:default}
.pling-vue-dock .pling-vue-primary{background:#1f883d;border-color:#1f883d;color:#fff}
.pling-vue-dock .pling-vue-operations{border-top:1px solid #d0d7de;padding-top:4px}
.pling-vue-dock .pling-vue-operation-list,.pling-vue-dock .pling-vue-trace-calls,.pling-vue-dock .pling-vue-trace-messages{margin:0;padding-left:18px;font-size:12px}
.pling-vue-dock .pling-vue-operation--ok{color:#1a7f37}
.pling-vue-dock .pling-vue-operation--failed,.pling-vue-dock .pling-vue-operation--blocked{color:#cf222e}
.pling-vue-dock .pling-vue-operation--running,.pling-vue-dock .pling-vue-operation--info{color:#59636e}
.pling-vue-dock .pling-vue-trace-messages li{white-space:pre-wrap;overflow-wrap:anywhere}
.pling-vue-dock .pling-vue-trace-role{font-weight:600}
.pling-vue-dock .pling-vue-form{display:flex;flex-direction:column;gap:6px}
.pling-vue-dock .pling-vue-input{width:100%;resize:vertical;font:inherit;padding:6px 8px;border:1px solid #d0d7de;border-radius:6px}
`;

/** Adds the stylesheet to `document` unless it is there already (one per document, however many docks). */
export function ensureDockStyles(document: Document): void {
  if (document.querySelector(`style[${DOCK_STYLE_ATTRIBUTE}="${STYLE_NAME}"]`)) return;
  const style = document.createElement('style');
  style.setAttribute(DOCK_STYLE_ATTRIBUTE, STYLE_NAME);
  style.textContent = DOCK_CSS;
  document.head.append(style);
}
