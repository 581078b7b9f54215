// One classification of "the database cannot be used right now" for the host: @aalis/api-storage's.
export { storageFailure } from '@aalis/api-storage';
