// Whether a name is one git takes for a branch, by the rules of `git check-ref-format --branch`,
// checked here so a bad `pull-request-branch` input is refused before any git runs.

/** Why `name` is no safe branch name, or null when it is one. */
export function branchNameProblem(name: string): string | null {
  if (name === '') return 'it is empty';
  if (name.startsWith('-')) return "it starts with '-'";
  if (name === 'HEAD' || name === '@') return `'${name}' names no branch`;
  if (name.includes('..')) return "it holds '..'";
  if (name.includes('@{')) return "it holds '@{'";
  // Control characters, space, and ~ ^ : ? * [ \ are refused anywhere in a ref name.
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0020\u007f~^:?*[\\]/.test(name))
    return 'it holds a space, a control character or one of ~ ^ : ? * [ \\';
  if (name.startsWith('/') || name.endsWith('/') || name.includes('//'))
    return "it starts or ends with '/', or holds '//'";
  if (name.endsWith('.')) return "it ends with '.'";
  for (const component of name.split('/')) {
    if (component.startsWith('.')) return "a part of it starts with '.'";
    if (component.endsWith('.lock')) return "a part of it ends with '.lock'";
  }
  return null;
}
