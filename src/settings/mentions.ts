// How the settings map catalog owners to the GitHub handles a pull request comment mentions.

/** Catalog teams and users to GitHub handles (`impact.mentions` of .contracts.yaml). */
export interface Mentions {
  teams?: Readonly<Record<string, string>>;
  users?: Readonly<Record<string, string>>;
}
