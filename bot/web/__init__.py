"""The web table (issue 34): a live table at a member's seat, in a browser.

- :mod:`bot.web.links`: the signed, short-lived links that open a seat or a game's
  public view;
- :mod:`bot.web.protocol`: the versioned JSON frames (``docs/web.md``);
- :mod:`bot.web.screen`: the screen that pushes each stored change to every open page;
- :mod:`bot.web.server`: the aiohttp server in the bot's process (``WEB_PORT``);
- :mod:`bot.web.sites`: the names it answers, the origins it lets in and the headers
  that close it to other sites;
- :mod:`bot.web.local`: ``tuque-web``, the same server without Discord, to play against
  computers in a browser, with its home page (:mod:`bot.web.home`).
"""
