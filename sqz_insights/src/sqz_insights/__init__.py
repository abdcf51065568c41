"""sqz-insights: what sqz saved, in exact cl100k tokens and in dollars (``sqz stats``, ``gain``, ``report``)."""
