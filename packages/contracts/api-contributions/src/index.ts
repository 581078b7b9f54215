// @aalis/api-contributions: the contributions service contract. Points and their spec shapes are declared by
// merging into ContributionPointMap:
//   declare module '@aalis/api-contributions' { interface ContributionPointMap { 'agent:prompt': PromptSpec } }
import { type Disposer, defineService, type RegistrationOwner, type ServiceDescriptor } from '@aalis/core';

// biome-ignore lint/suspicious/noEmptyInterface: filled by declaration merging in other packages.
export interface ContributionPointMap {}

export type ContributionPoint = keyof ContributionPointMap & string;

/** Every spec carries a local id, unique within its contributor. */
export interface ContributionSpecBase {
  id: string;
}

export interface Contribution<P extends ContributionPoint> {
  /** `<plugin instance id>/<local id>`. */
  key: string;
  /** The contributing plugin instance id ('' when contributed outside a plugin). */
  contributor: string;
  spec: ContributionPointMap[P];
}

export interface ContributionsService {
  /** Contributes to a point; the same key again replaces the earlier spec in place. Owned by the caller. */
  contribute<P extends ContributionPoint>(point: P, spec: ContributionPointMap[P] & ContributionSpecBase): Disposer;
  /** The point's current contributions in first-contribution order; the owner of the point decides how to run them. */
  collect<P extends ContributionPoint>(point: P): Contribution<P>[];
}

export const contributions: ServiceDescriptor<ContributionsService> = defineService<ContributionsService>(
  'contributions',
  { registrars: ['contribute'] },
);

export function contributionKey(owner: RegistrationOwner | undefined, localId: string): string {
  return `${owner?.instanceId ?? ''}/${localId}`;
}
