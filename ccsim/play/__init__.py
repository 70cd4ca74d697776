"""One game at a time: ``Game`` (a game driven decision by decision), game records
(``record``), their story (``narrate``), a game told to the person who plays it (``story``) and
play at a terminal (``terminal``)."""
