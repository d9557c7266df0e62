import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, withSecretFiles } from '../src/index.js';

describe('withSecretFiles', () => {
  const dir = mkdtempSync(join(tmpdir(), 'secret-files-'));
  const file = join(dir, 'KEY');
  writeFileSync(file, 'the-secret-value\n');

  it('reads NAME from NAME_FILE, without the trailing newline a mounted Secret may carry', () => {
    expect(withSecretFiles({ KEY_FILE: file, OTHER: 'x' }, ['KEY'])).toEqual({
      KEY_FILE: file,
      KEY: 'the-secret-value',
      OTHER: 'x',
    });
    expect(withSecretFiles({ KEY: 'inline' }, ['KEY'])).toEqual({ KEY: 'inline' });
  });

  it('refuses both NAME and NAME_FILE, and an unreadable file, naming the path but never a value', () => {
    expect(() => withSecretFiles({ KEY: 'inline-secret', KEY_FILE: file }, ['KEY'])).toThrow(
      /KEY, KEY_FILE: give one, not both/,
    );
    try {
      withSecretFiles({ KEY_FILE: join(dir, 'missing') }, ['KEY']);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems).toEqual([`KEY_FILE: cannot read ${join(dir, 'missing')} (ENOENT)`]);
    }
  });
});
