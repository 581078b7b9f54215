// @aalis/api-authority: Contract of the authority service: owners, levels, turn participants.
export {};
