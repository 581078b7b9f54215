// @aalis/plugin-message-archive: The message archive service.
export {};
