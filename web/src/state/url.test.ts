import { describe, expect, it } from 'vitest';
import { DEFAULT_STATE, entryHref, sessionHref, parseUrlState, serializeUrlState, type UrlState } from './url';

describe('url state', () => {
  it('serializes the default state to an empty query', () => {
    expect(serializeUrlState(DEFAULT_STATE)).toBe('');
    expect(parseUrlState('')).toEqual(DEFAULT_STATE);
  });

  it('round-trips every field, including awkward values', () => {
    const state: UrlState = {
      view: 'memory',
      plan: 'a b&c=d.md',
      q: 'dark mode #1 & "quotes"',
      projects: ['webapp', '', 'a,b'],
      sort: 'size',
      dir: 'asc',
      memorySort: 'name',
      source: '-tmp-x-webapp',
      entry: '-tmp-x-webapp/user role.md',
      types: ['user', 'none'],
      tab: 'graph',
      pick: 'web app & co',
      full: true,
      planTab: 'history',
      entryTab: 'blame',
      from: 't0123456789abcdef',
      to: 'd0123456789abcdef',
      layout: 'split',
      raw: true,
      session: '5e55-a b',
      at: 123456,
    };
    const query = serializeUrlState(state);
    expect(parseUrlState(query)).toEqual(state);
  });

  it('keeps the memory reader\'s tab, and drops one it does not know', () => {
    expect(parseUrlState('?view=memory&entry=x%2Fa.md&etab=history').entryTab).toBe('history');
    expect(parseUrlState('?view=memory&etab=other').entryTab).toBeNull();
    expect(serializeUrlState({ ...DEFAULT_STATE, view: 'memory', entry: 'x/a.md', entryTab: 'blame' })).toBe('?view=memory&entry=x%2Fa.md&etab=blame');
  });

  it('keeps the memory health tab and the project picker\'s text', () => {
    expect(parseUrlState('?view=memory&tab=health&pick=shop')).toMatchObject({ tab: 'health', pick: 'shop' });
    expect(serializeUrlState({ ...DEFAULT_STATE, view: 'memory', tab: 'health', pick: 'a b' })).toBe('?view=memory&tab=health&pick=a+b');
  });

  it('uses the natural direction of a column unless told otherwise', () => {
    expect(parseUrlState('?sort=title')).toMatchObject({ sort: 'title', dir: 'asc' });
    expect(parseUrlState('?sort=size')).toMatchObject({ sort: 'size', dir: 'desc' });
    expect(serializeUrlState({ ...DEFAULT_STATE, sort: 'title', dir: 'asc' })).toBe('?sort=title');
    expect(serializeUrlState({ ...DEFAULT_STATE, sort: 'modified', dir: 'asc' })).toBe('?sort=modified&dir=asc');
  });

  it('defaults to "Best match" (left out of links), which has one direction; a column or the usual memory order is kept', () => {
    expect(parseUrlState('')).toMatchObject({ sort: 'best', dir: 'desc', memorySort: 'best' });
    expect(parseUrlState('?sort=best&dir=asc')).toMatchObject({ sort: 'best', dir: 'desc' });
    expect(serializeUrlState({ ...DEFAULT_STATE, q: 'x', sort: 'best', dir: 'desc' })).toBe('?q=x');
    // Picking the date while searching is a choice of its own: it stays in the link.
    expect(serializeUrlState({ ...DEFAULT_STATE, sort: 'modified', dir: 'desc' })).toBe('?sort=modified');
    expect(parseUrlState('?sort=modified')).toMatchObject({ sort: 'modified', dir: 'desc' });
    expect(serializeUrlState({ ...DEFAULT_STATE, view: 'memory', memorySort: 'name' })).toBe('?view=memory&msort=name');
    expect(parseUrlState('?msort=name').memorySort).toBe('name');
    expect(parseUrlState('?msort=random').memorySort).toBe('best');
  });

  it('ignores unknown or hostile values', () => {
    const s = parseUrlState('?view=admin&sort=evil&dir=up&type=secret&type=user&tab=x&full=yes');
    expect(s).toMatchObject({ view: 'plans', sort: 'best', dir: 'desc', types: ['user'], tab: 'entry', full: false });
  });

  it('keeps the archive view and the history tab\'s choices, and ignores unknown ones', () => {
    expect(parseUrlState('?view=archive&plan=gone.md&ptab=history&from=t1&to=o2&layout=split&raw=1')).toMatchObject({
      view: 'archive', plan: 'gone.md', planTab: 'history', from: 't1', to: 'o2', layout: 'split', raw: true,
    });
    expect(parseUrlState('?ptab=secret&layout=diagonal&raw=yes')).toMatchObject({ planTab: null, layout: 'inline', raw: false });
    expect(serializeUrlState({ ...DEFAULT_STATE, view: 'archive', planTab: 'document' })).toBe('?view=archive&ptab=document');
  });

  it('builds entry links that parse back', () => {
    const s = parseUrlState(entryHref('src', 'src/x.md'));
    expect(s).toMatchObject({ view: 'memory', source: 'src', entry: 'src/x.md' });
  });

  it('opens the session view at an entry, and ignores a cursor that is not one', () => {
    expect(sessionHref('abc', 42)).toBe('?view=session&session=abc&at=42');
    expect(parseUrlState('?view=session&session=abc&at=42')).toMatchObject({ view: 'session', session: 'abc', at: 42 });
    expect(parseUrlState('?view=session&session=abc&at=-1')).toMatchObject({ at: null });
    expect(parseUrlState('?view=costs')).toMatchObject({ view: 'costs' });
  });
});
