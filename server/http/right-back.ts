/**
 * The page a browser gets while the database is unreachable. It is built without the database or
 * the page renderer (both may be what is down): plain HTML, readable at 360 px and in dark mode.
 * It does not reload itself (a timed refresh takes control from screen-reader users); its one
 * button reloads the address the visitor asked for.
 */
export const RIGHT_BACK_TITLE = "We'll be right back"

export const rightBackHtml = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${RIGHT_BACK_TITLE} - Data Hub</title>
<style>
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#fff;color:#14161a;line-height:1.5}
main{max-width:32rem;margin:0 auto;padding:3rem 1.25rem;text-align:center}
h1{font-size:1.6rem;margin:0 0 .75rem}
a{display:inline-block;margin-top:1rem;padding:.6rem 1.2rem;border-radius:.4rem;background:#2f45a8;color:#fff;text-decoration:none}
a:focus-visible{outline:3px solid #ffb70f;outline-offset:2px}
@media (prefers-color-scheme:dark){body{background:#14161a;color:#f5f5f5}}
</style>
</head>
<body>
<main>
<h1>${RIGHT_BACK_TITLE}</h1>
<p role="status">The shop is catching its breath for a moment. Nothing you paid for is lost. Please try again in a few seconds.</p>
<a href="">Try again now</a>
</main>
</body>
</html>
`
