"""One game at a time: ``Game`` (a game driven decision by decision), game records
(``record``), their story (``narrate``) and play at a terminal (``terminal``)."""
