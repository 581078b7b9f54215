// Where `app.use(pling)` provides the instance, and where usePling() and AgentDock look for it.
import type { InjectionKey } from 'vue';
import type { Pling } from './create-pling.js';

export const PLING_KEY: InjectionKey<Pling> = Symbol('pling');
