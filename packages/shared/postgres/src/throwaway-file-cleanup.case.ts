// Vitest setup file of the projects whose workers run one file after another (isolate: false): after each file, the
// throwaway databases it made are dropped, as the run's sweeps drop those of a worker that has ended.
import { afterAll } from 'vitest';
import { dropMyDatabases } from './throwaway-postgres.js';

afterAll(() => dropMyDatabases(), 60_000);
