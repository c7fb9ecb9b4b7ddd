import { describe, expect, it } from 'vitest';
import { neutralizeStyleAttributes } from './cspSafeMarkup';

describe('neutralizeStyleAttributes', () => {
  it('renames style attributes inside tags only', () => {
    const svg = '<svg style="max-width: 10px" id="a"><g><rect style=\'fill:red\' x="1"/><text>a style="b" &lt;x style="y"&gt;</text></g></svg>';
    expect(neutralizeStyleAttributes(svg)).toBe(
      '<svg data-pmv-style="max-width: 10px" id="a"><g><rect data-pmv-style=\'fill:red\' x="1"/><text>a style="b" &lt;x style="y"&gt;</text></g></svg>',
    );
  });
  it('leaves attributes that merely end in "style" alone', () => {
    expect(neutralizeStyleAttributes('<text font-style="italic" data-style="x">')).toBe('<text font-style="italic" data-style="x">');
  });
});
