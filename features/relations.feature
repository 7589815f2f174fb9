Feature: What a list answer means, and the records an answer names
  A filter, a search, a sort, a page or a populate entity changes which
  entries a list answer holds, never what the entries are: each answer is
  judged against the whole list read without it, entry by entry, by what
  identifies an entry. Where the specification leaves a reading open (the
  case of a search, whether a date bound includes its own instant) only
  what holds under every reading is judged, and the values sent are chosen
  from the list itself so that an answer keeping too much shows. The
  members an answer ties to a record the request names must name that
  record. Every check here is derived from the operation's declarations in
  the registry (each operation's row, internal/registry/registry.go), one Examples block each.

  Scenario Outline: <op> filtered by <param> holds exactly the entries that match
    When I read the whole list of <op>
    Then the answer of <op> filtered by <param> holds exactly the entries of the whole list that match it

    # examples: one per relation filter

  Scenario Outline: <op> with all its filters together holds the entries matching them all
    When I read the whole list of <op>
    Then the answer of <op> filtered by all its filters together holds exactly the entries that match them all

    # examples: one per relation combined

  Scenario Outline: <op> sorted holds the same entries as unsorted
    When I read the whole list of <op>
    Then the whole list of <op> sorted by its first sort key holds the same entries

    # examples: one per relation sort-same

  Scenario Outline: <op> with limit 1 answers an array of one entry
    When I read the whole list of <op>
    Then the answer of <op> with limit 1 is an array of one entry

    # examples: one per relation limit-one

  Scenario Outline: <op> read page by page neither repeats nor skips an entry
    When I read the whole list of <op>
    Then the pages of <op> at a fixed limit hold each entry of the whole list once

    # examples: one per relation pages

  Scenario Outline: <op> with populate <param> changes nothing but what it fills
    Then the answer of <op> with populate <param> changes no entry and no member but the one it fills

    # examples: one per relation populate-only

  Scenario Outline: <op> with populate <param> fills what the fixture promises
    Then the answer of <op> with populate <param> fills it

    # examples: one per relation populate-filled

  Scenario Outline: <op> answers with <param> naming the record its request names
    When I make a typical call to <op>
    Then the answer names the records the request names

    # examples: one per relation reference
