// What a shell command was, by its text: a test run, a build, a commit (with its message), or other work.
// A heuristic over the command as written, kept simple enough to explain in one line of the UI.

export type CommandKind = 'test' | 'build' | 'commit' | 'other';

const COMMIT = /\bgit\s+(?:-\S+\s+)*commit\b/;
const TEST = /\b(?:vitest|jest|pytest|mocha|rspec|phpunit|playwright\s+test|go\s+test|cargo\s+test|dotnet\s+test|(?:npm|pnpm|yarn|bun)\s+(?:run\s+)?test(?::\S+)?|make\s+(?:test|check))\b/;
const BUILD = /\b(?:tsc|(?:npm|pnpm|yarn|bun)\s+(?:run\s+)?build|cargo\s+build|go\s+build|vite\s+build|webpack|gradle|mvn|make)\b/;

export function commandKind(command: string): CommandKind {
  if (COMMIT.test(command)) return 'commit';
  if (TEST.test(command)) return 'test';
  if (BUILD.test(command)) return 'build';
  return 'other';
}

/** The first line of a commit's message: `-m "…"`, `-m '…'`, or a heredoc (`-m "$(cat <<'EOF' … EOF)"`). */
export function commitMessage(command: string): string | null {
  const heredoc = /<<-?\s*['"]?(\w+)['"]?\n([\s\S]*?)\n\s*\1\b/.exec(command);
  const quoted = /(?:-m|--message)(?:\s+|=)(["'])((?:\\.|(?!\1)[\s\S])*)\1/.exec(command);
  const text = heredoc?.[2] ?? quoted?.[2] ?? null;
  if (text === null) return null;
  const first = text.split('\n').map((l) => l.trim()).find((l) => l !== '' && !l.startsWith('$(')) ?? null;
  return first === null ? null : first.replace(/\\(["'])/g, '$1').slice(0, 300);
}
