// @aalis/api-message-archive: Contract of the message archive and the shared incoming-content builder.
export {};
