// An access token an adapter's API client fetches with its app's credentials and uses until shortly before it
// expires (DingTalk's and QQ's): one fetch at a time however many calls wait for it, renewed a minute early (the
// platforms keep the old token valid a while after a new one is issued), dropped when the platform refuses it.

export interface FetchedToken {
  value: string;
  /** Its lifetime as the platform stated it. */
  lifetimeS: number;
}

export class CachedToken {
  private token: { value: string; expiresAt: number } | undefined;
  private fetching: Promise<string> | undefined;

  constructor(private readonly fetchToken: () => Promise<FetchedToken>) {}

  /** The current token, fetched when missing or about to expire. */
  get(): Promise<string> {
    if (this.token && this.token.expiresAt > Date.now()) return Promise.resolve(this.token.value);
    this.fetching ??= this.fetchToken()
      .then(({ value, lifetimeS }) => {
        this.token = { value, expiresAt: Date.now() + Math.max(10, lifetimeS - 60) * 1000 };
        return value;
      })
      .finally(() => {
        this.fetching = undefined;
      });
    return this.fetching;
  }

  /** Forgets the token (the platform refused it): the next call fetches a new one. */
  drop(): void {
    this.token = undefined;
  }
}
