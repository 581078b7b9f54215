// The contributions service implementation: per point, an insertion-ordered map keyed by contribution key.
import {
  type Contribution,
  type ContributionPoint,
  type ContributionPointMap,
  type ContributionSpecBase,
  type ContributionsService,
  contributionKey,
} from '@aalis/api-contributions';
import type { Disposer, RegistrationOwner } from '@aalis/core';

interface Entry {
  key: string;
  contributor: string;
  spec: unknown;
  token: symbol;
}

export class ContributionRegistry implements ContributionsService {
  private readonly points = new Map<string, Map<string, Entry>>();

  contribute<P extends ContributionPoint>(
    point: P,
    spec: ContributionPointMap[P] & ContributionSpecBase,
    owner?: RegistrationOwner,
  ): Disposer {
    const key = contributionKey(owner, (spec as ContributionSpecBase).id);
    const entries = this.points.get(point) ?? new Map<string, Entry>();
    this.points.set(point, entries);
    const token = Symbol(key);
    const existing = entries.get(key);
    if (existing) {
      existing.spec = spec;
      existing.token = token;
    } else {
      entries.set(key, { key, contributor: owner?.instanceId ?? '', spec, token });
    }
    return () => {
      // Only the registration that is current may withdraw it (a replaced one leaves the replacement alone).
      if (entries.get(key)?.token === token) entries.delete(key);
    };
  }

  collect<P extends ContributionPoint>(point: P): Contribution<P>[] {
    return [...(this.points.get(point)?.values() ?? [])].map((entry) => ({
      key: entry.key,
      contributor: entry.contributor,
      spec: entry.spec as ContributionPointMap[P],
    }));
  }
}
