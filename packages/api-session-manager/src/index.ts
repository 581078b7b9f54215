// @aalis/api-session-manager: Contract of the session manager.
export {};
