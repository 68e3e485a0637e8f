// awesome-lint's own rules and reporter, less the two that need the network
// (awesome-github asks the GitHub API about the repository; awesome-git-repo-age
// is disabled upstream). Usage: node awesome-lint.mjs <awesome-lint package dir> README.md
import path from 'node:path';
import {pathToFileURL} from 'node:url';

const [pkg, file] = process.argv.slice(2);
const load = rel => import(pathToFileURL(path.join(pkg, rel)).href);
const {default: awesomeLint} = await load('index.js');
const {createConfig} = await load('config.js');
const {createRules} = await load('rules/index.js');
const {default: github} = await load('rules/github.js');

const offline = createRules().filter(rule => (Array.isArray(rule) ? rule[0] : rule) !== github);
if (offline.length !== createRules().length - 1) {
	throw new Error('awesome-github rule not found: the pinned awesome-lint changed');
}

await awesomeLint.report({filename: file, config: createConfig(offline)});
