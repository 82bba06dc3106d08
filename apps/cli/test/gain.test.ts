/**
 * `colony gain` as a real process: the receipts of earlier CLI calls on the same
 * store, as a table and as the savings_report payload; bad prices are usage errors.
 */
import { describe, expect, it } from 'vitest';
import { cliStore } from './_cli';

describe('colony gain', () => {
  it('prints the receipts of earlier calls and the reference model; --json is the tool payload', async () => {
    const cli = cliStore('colony-gain-');
    await cli.tool('search', { query: 'create the store' }); // read commands need a store
    expect(cli.colony(['search', 'rate limiter']).code).toBe(0);
    expect(cli.colony(['search', 'claims']).code).toBe(0);
    const human = cli.colony(['gain', '--input-usd-per-1m', '3', '--output-usd-per-1m', '15']);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/^live: .* at \$3 in \/ \$15 out per 1M tokens/);
    expect(human.stdout).toMatch(/\n {2}search +2 +0 /);
    expect(human.stdout).toMatch(/reference \(static model/);
    expect(human.stdout).toMatch(/\n {2}total .*%\n/);

    const json = cli.colony(['gain', '--json', '--operation', 'search']);
    expect(json.code, json.stderr).toBe(0);
    const report = json.json();
    expect(report.live.operations).toEqual([expect.objectContaining({ operation: 'search', calls: 2 })]);
    expect(report.live.cost_basis.configured).toBe(false);
    expect(report.reference.kind).toBe('static_per_session_model');
  });

  it('refuses a malformed price or window as a usage error, and hours over 720 as the tool does', async () => {
    const cli = cliStore('colony-gain-bad-');
    await cli.tool('search', { query: 'create the store' });
    const price = cli.colony(['gain', '--input-usd-per-1m', 'cheap']);
    expect(price.code).toBe(2);
    expect(price.stderr).toMatch(/--input-usd-per-1m must be a price/);
    expect(cli.colony(['gain', '--hours', '1.5']).code).toBe(2);
    const tooLong = cli.colony(['gain', '--hours', '721']);
    expect(tooLong.code).toBe(1);
    expect(tooLong.stderr).toMatch(/INVALID_PARAMETERS/);
  });
});
