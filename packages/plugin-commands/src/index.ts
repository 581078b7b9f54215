// @aalis/plugin-commands: The commands service and /clear, /help.
export {};
