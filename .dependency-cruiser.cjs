// The directions imports may take (docs/conventions.md, "Imports flow one way"; ADR 0035).
// `npm run check:deps` holds the code to them; a violation fails CI.
// Named .cjs: package.json's "type": "module" would read a .js file as an ES module, and this one is CommonJS.

// What the domain layer and what lies below it must never reach: the channels and the tools above them.
const ABOVE_THE_DOMAIN = '^(server/http|pages|renderer|ussd|jobs|scripts|test|bench)/'
// The channels the server joins only as arguments: main.ts, the process entry, composes them (ADR 0035).
const CHANNELS = '^(ussd|jobs|main[.]ts$)'

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'Files that import each other cannot be read, tested or moved one at a time. Move what both need ' +
        'into a lower module (a shared helper into server/lib, shared types into their own file).',
      from: {},
      to: { circular: true }
    },
    {
      name: 'domain-not-above',
      severity: 'error',
      comment:
        'server/services, models and server/lib serve every channel; they never import a channel ' +
        '(server/http, pages, renderer, ussd, jobs) nor scripts, benchmarks or tests.',
      from: { path: '^(server/services|server/lib|models)/' },
      to: { path: ABOVE_THE_DOMAIN }
    },
    {
      name: 'lib-and-models-not-services',
      severity: 'error',
      comment: 'server/lib and models sit under the domain layer: they take what they need as arguments, ' + 'never by importing server/services.',
      from: { path: '^(server/lib|models)/' },
      to: { path: '^server/services/' }
    },
    {
      name: 'server-not-channels',
      severity: 'error',
      comment:
        'The USSD gateway and the scheduled jobs sit above the server and import its services; the server ' +
        'takes them as Channels from main.ts (the process entry and composition root), never by importing them.',
      from: { path: '^server/' },
      to: { path: CHANNELS }
    },
    {
      name: 'pages-not-http',
      severity: 'error',
      comment: 'Pages and the renderer reach the server through pageContext.services and the JSON API, ' + 'never by importing the HTTP layer.',
      from: { path: '^(pages|renderer)/' },
      to: { path: '^server/http/' }
    }
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Type-only imports tie files together for the reader and the compiler too: they count.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.d.ts']
    },
    reporterOptions: {
      text: { highlightFocused: true }
    }
  }
}
