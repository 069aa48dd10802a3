"""The live stream: each new version of a public live region, pushed once to every open page.

A page that shows the standings or the schedule polls its fragment every second
(tournaments/views/live.py). With a stream host configured (`LIVE_STREAM_URL`), it opens a
server-sent events stream here instead and stops polling once the stream proves live: its
region, a patch of it, or `current` (the page already shows the newest version). It polls again on
`poll` (the host cannot fetch the region), on an error, and once 30 s pass with no event
(a version check, 204 while nothing moved), which makes up a version whose announcement
was lost. A stream host is an ASGI app (uvicorn) that holds the open pages' connections and
no database connection:

- it learns of a new version from Redis pub/sub (`live.versions.publish_live` announces
  each tournament's versions after a change commits and after a recompute stores standings);
- it fetches the region for that version once, from the web tier, as an anonymous visitor
  in the listeners' language (so who may read what is decided there, once: a private or
  draft tournament answers 404 and its pages keep polling), under a host name the site
  trusts (`trusted_host`: never a visitor's) and as the HTTPS request it stands for;
- after each (re)subscription to a channel it fetches that channel's regions again: what
  was announced while the subscription was down is made up;
- it sends a page that opens a stream the region whole, then each new version as a patch
  of the version that page holds (`events`), made and compressed once for every listener
  that holds the same one.

A listener that is slow is owed only the newest version: when it can be written to again it
gets the patch from the version it holds (or, if that one is no longer kept, the region
whole), and skips the versions between.

The modules: `paths` (which regions a request may ask for: the URL configuration's streamed
views, `live.regions`), `hub` (the topics, their listeners and fetches), `serve` (one
stream request), `events` (what goes on the wire) and `app` (the ASGI app: Redis pub/sub in,
the web tier's regions fetched; config/asgi.py mounts it at `paths.PREFIX`).
"""
