"""Live versions and how they reach the open pages: plumbing below the event, never a tournament.

The event (tournaments) publishes its versions here and registers how to read them
(`versions.register_source`) and which of its views are streamed regions (`regions.streamed`);
this app keeps the versions in the cache, announces them (Redis pub/sub), renders a shared
region once per version (`fragments`) and hosts the stream (`stream/`), which fetches the
pages over HTTP and finds them by the URL configuration.
"""
