/**
 * @module in-order
 * `Array.prototype.map` for async callbacks that must run one after another (writes in
 * one store transaction, in the array's order), resolving to the results in order.
 */
export async function mapInOrder<T, R>(
  items: readonly T[],
  fn: (item: T, index: number) => R | Promise<R>,
): Promise<R[]> {
  const out: R[] = [];
  for (const [index, item] of items.entries()) out.push(await fn(item, index));
  return out;
}
