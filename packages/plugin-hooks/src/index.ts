// @aalis/plugin-hooks: The hooks service: onion middleware chains with a default action at the centre.
export {};
