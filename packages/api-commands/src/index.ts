// @aalis/api-commands: Contract of the commands service: slash-command registry and parser.
export {};
