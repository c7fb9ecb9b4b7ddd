// The UI runs on Preact through preact/compat (web/vite.config.ts). Two props that React turns into the
// right attribute reach the DOM differently there: Preact sets a prop it does not find as a property of
// the element as an attribute of the prop's own name, and compat renames neither of these.
//   tabIndex    On an SVG element the attribute `tabIndex` is not `tabindex` (SVG keeps an attribute
//               name's case), so the link graph's nodes could not take the focus.
//   spellCheck  No such property (the DOM's is `spellcheck`), so `spellCheck={false}` removed the
//               attribute, which leaves spell checking on, instead of writing spellcheck="false".
// Imported first by main.tsx, before any element is created.
import { options, type VNode } from 'preact';

const previous = options.vnode;
options.vnode = (vnode: VNode) => {
  if (typeof vnode.type === 'string') {
    const props = vnode.props as Record<string, unknown>;
    if ('tabIndex' in props) {
      props.tabindex = props.tabIndex;
      delete props.tabIndex;
    }
    // As text it is written as an attribute, whose name HTML lowercases.
    if (typeof props.spellCheck === 'boolean') props.spellCheck = String(props.spellCheck);
  }
  previous?.(vnode);
};
