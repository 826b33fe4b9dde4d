// Where a view writes: the command's standard output and standard error.

export interface Output {
  write(text: string): unknown;
  isTTY?: boolean;
  /** The reader went away (EPIPE): what is written now goes to standard error instead. */
  readonly closed?: boolean;
}

export interface Streams {
  stdout: Output;
  stderr: Output;
  /** The environment colors are read from (NO_COLOR). */
  env: Readonly<Record<string, string | undefined>>;
}
