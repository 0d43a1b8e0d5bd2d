/** The inert element Vike writes the page's scripts into (`injectScriptsAt: 'HTML_END'` and its end-of-page placeholder). */
export const CLIENT_ASSETS_ID = 'client-assets'

/** Where Vike writes the tags it would put before `</body>` (its supported placeholder for the end of the page). */
export const ASSETS_LAST_PLACEHOLDER = '__VITE_PLUGIN__SSR_ASSETS_LAST__'

// Runs inline (with the CSP nonce) after the page's last element. The page's scripts and their modulepreloads sit in a
// <template>, which the browser neither fetches nor runs; this moves them into the page once the first contentful paint
// has happened, so no JavaScript is downloaded, compiled or run before the phone shows the page. A tab opened in the
// background paints nothing until shown, so there the code starts at once; a browser without paint timing starts it
// after its first frame.
// One element a task: each insertion costs the browser 1-7 ms on a slowed phone (a request started, the element
// styled), so moving all ten in one task made a task of 16-25 ms x 4, which a busy phone stretches past 50 ms. The
// data and Vike's entry go first (the entry needs the data, and it is the first to be fetched), then each modulepreload
// after the previous one, over a MessageChannel (a timer would be clamped and throttled); the fetches start a few ms
// apart, far less than one round trip.
export const CLIENT_START_SCRIPT = `(function(){var n=document.currentScript.nonce,t=document.getElementById('${CLIENT_ASSETS_ID}'),done=false;function add(e){var x;if(e.tagName==='SCRIPT'&&e.hasAttribute('src')){x=document.createElement('script');x.type='module';x.async=true;x.src=e.getAttribute('src');x.nonce=n}else x=document.importNode(e,true);document.body.appendChild(x);return x.tagName==='SCRIPT'&&x.src}function go(){if(done)return;done=true;var l=[].slice.call(t.content.children),i=0;t.remove();while(i<l.length)if(add(l[i++]))break;if(i>=l.length)return;var c=new MessageChannel();c.port1.onmessage=function(){add(l[i++]);if(i<l.length)c.port2.postMessage(0);else c.port1.close()};c.port2.postMessage(0)}if(document.visibilityState!=='visible')return go();var P=window.PerformanceObserver;if(P&&P.supportedEntryTypes&&P.supportedEntryTypes.indexOf('paint')>=0){new P(function(l,o){if(l.getEntriesByName('first-contentful-paint').length){o.disconnect();go()}}).observe({type:'paint',buffered:true})}else requestAnimationFrame(function(){setTimeout(go,0)})})()`
