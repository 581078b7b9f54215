// @aalis/plugin-session-server: The session server: one HTTP + WebSocket server in the host speaking the session protocol, with login, serving the WebUI.
export {};
