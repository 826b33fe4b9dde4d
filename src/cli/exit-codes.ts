// Exit codes of every command: 0 success (plan: no changes), 1 any error, 2 plan found changes
// (only with --detailed-exitcode).
export const EXIT_OK = 0;
export const EXIT_ERROR = 1;
export const EXIT_CHANGES = 2;
/** The person interrupted the command (Ctrl-C), as shells report a SIGINT. */
export const EXIT_INTERRUPTED = 130;
