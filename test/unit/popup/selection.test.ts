import { describe, expect, it } from 'vitest';
import {
  everything,
  extendedTo,
  including,
  NO_SELECTION,
  pruned,
  selectedItems,
  toggled,
} from '../../../lib/popup/selection';
import { idOf, makeInbox } from './popup-background';

const items = makeInbox(6);
const selected = (selection: { ids: ReadonlySet<string> }) =>
  [...selection.ids].map((id) => Number(id.slice(-12))).sort((a, b) => b - a);

describe('selection', () => {
  it('toggles one item and makes it the anchor', () => {
    const one = toggled(NO_SELECTION, idOf(4));
    expect(selected(one)).toEqual([4]);
    expect(one.anchor).toBe(idOf(4));
    expect(selected(toggled(one, idOf(4)))).toEqual([]);
  });

  it('extends from the anchor to the clicked item, either way, to the state the clicked item takes', () => {
    const down = extendedTo(toggled(NO_SELECTION, idOf(5)), items, idOf(2));
    expect(selected(down)).toEqual([5, 4, 3, 2]);
    const up = extendedTo(toggled(NO_SELECTION, idOf(2)), items, idOf(4));
    expect(selected(up)).toEqual([4, 3, 2]);
    const cleared = extendedTo(toggled(everything(items), idOf(6)), items, idOf(4));
    expect(selected(cleared)).toEqual([3, 2, 1]);
  });

  it('toggles when there is no anchor to extend from', () => {
    expect(selected(extendedTo(NO_SELECTION, items, idOf(3)))).toEqual([3]);
  });

  it('adds items as moving with shift does', () => {
    expect(selected(including(including(NO_SELECTION, idOf(6)), idOf(6)))).toEqual([6]);
  });

  it('drops items that left the list, and returns the same selection when none did', () => {
    const some = toggled(toggled(NO_SELECTION, idOf(6)), idOf(1));
    expect(selected(pruned(some, items.slice(0, 3)))).toEqual([6]);
    expect(pruned(some, items.slice(0, 3)).anchor).toBeNull();
    expect(pruned(some, items)).toBe(some);
    expect(selectedItems(some, items).map((item) => item.id)).toEqual([idOf(6), idOf(1)]);
  });
});
