/** The inert element Vike writes the page's scripts into (`injectScriptsAt: 'HTML_END'` and its end-of-page placeholder). */
export const CLIENT_ASSETS_ID = 'client-assets'

/** Where Vike writes the tags it would put before `</body>` (its supported placeholder for the end of the page). */
export const ASSETS_LAST_PLACEHOLDER = '__VITE_PLUGIN__SSR_ASSETS_LAST__'

// Runs inline (with the CSP nonce) after the page's last element. The page's scripts and their modulepreloads sit in a
// <template>, which the browser neither fetches nor runs; this moves them into the page once the first contentful paint
// has happened, so no JavaScript is downloaded, compiled or run before the phone shows the page. A tab opened in the
// background paints nothing until shown, so there the code starts at once; a browser without paint timing starts it
// after its first frame.
export const CLIENT_START_SCRIPT = `(function(){var n=document.currentScript.nonce,t=document.getElementById('${CLIENT_ASSETS_ID}'),done=false;function go(){if(done)return;done=true;var f=t.content;for(var e=f.firstElementChild;e;e=e.nextElementSibling){var x;if(e.tagName==='SCRIPT'&&e.hasAttribute('src')){x=document.createElement('script');x.type='module';x.async=true;x.src=e.getAttribute('src');x.nonce=n}else x=document.importNode(e,true);document.body.appendChild(x)}t.remove()}if(document.visibilityState!=='visible')return go();var P=window.PerformanceObserver;if(P&&P.supportedEntryTypes&&P.supportedEntryTypes.indexOf('paint')>=0){new P(function(l,o){if(l.getEntriesByName('first-contentful-paint').length){o.disconnect();go()}}).observe({type:'paint',buffered:true})}else requestAnimationFrame(function(){setTimeout(go,0)})})()`
