// Says so when the viewer shows the bundled demo home instead of the user's own files.

export function DemoBanner({ onDismiss }: { onDismiss(): void }) {
  return (
    // A landmark of its own, so a screen reader's landmark list reaches it like the rest of the page.
    <aside className="demo-banner" aria-label="Demo data">
      <p>
        <strong>Demo data.</strong> You are looking at the bundled demo home, not your own plans and memory (no Claude Code
        folder was found, or <code>--demo</code> was given). To read yours, start the viewer with{' '}
        <code>--claude-dir ~/.claude</code> or set <code>CLAUDE_CONFIG_DIR</code>. Edit a file in the demo folder to watch live
        updates.
      </p>
      <button type="button" className="icon-button" onClick={onDismiss} aria-label="Hide the demo notice">
        ✕
      </button>
    </aside>
  );
}
