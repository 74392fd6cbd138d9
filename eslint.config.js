// Runtime boundaries (DESIGN.md §1) are enforced here, not by good intentions.
import tseslint from 'typescript-eslint';

const nodeBuiltins = { group: ['node:*'], message: 'This folder runs outside Node: no node:* imports.' };
const electron = { group: ['electron', 'electron/*'], message: 'Only the Electron shell (src/main/shell, src/preload) imports electron.' };
const react = { group: ['react', 'react-dom', 'react/*', 'react-dom/*'], message: 'src/shared is pure TypeScript: no React.' };
const mainFolder = { group: ['**/main/**', '**/src/main', '**/main'], message: 'The renderer cannot reach into src/main: go through window.firebrand.' };

/**
 * Layering inside src/main: every import arrow points down (chat service -> engine -> dialects/leg -> storage).
 * Each entry names the folders a layer may not import from, and why.
 */
const above = (folders, message) => ({ regex: `^(\\.\\./)+(${folders.join('|')})(/|$)`, message });
const mainLayers = [
  [['src/main/db/**'], above(['engine', 'chat', 'models', 'aliases', 'tools', 'export', 'serve', 'ipc', 'services'], 'Storage sits below the engine and the services: put a shared type in src/shared.')],
  [['src/main/engine/**'], above(['chat', 'export', 'serve', 'ipc', 'services'], 'The engine sits below the chat service: it must not depend on its folder.')],
  [['src/main/models/**'], above(['chat', 'serve', 'ipc', 'services'], 'The model manager sits below the chat service: URL helpers live in src/main/connections.')],
  [['src/main/dialects/**', 'src/main/leg/**'], above(['engine', 'chat', 'db', 'models', 'serve', 'ipc', 'services'], 'Dialects and the leg are pure wire code: they know no engine, storage or service.')],
];

export default tseslint.config(
  { ignores: ['out/**', 'node_modules/**', 'dist/**', 'bench/results.json', 'src/main/ipc/payload-validators.generated.js'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/shared/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [nodeBuiltins, electron, react, mainFolder] }] },
  },
  {
    files: ['src/renderer/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [nodeBuiltins, electron, mainFolder] }] },
  },
  {
    files: ['src/main/**/*.ts'],
    ignores: ['src/main/shell/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [electron] }] },
  },
  ...mainLayers.map(([files, layer]) => ({ files, rules: { 'no-restricted-imports': ['error', { patterns: [electron, layer] }] } })),
);
