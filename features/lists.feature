Feature: Paging and ordering of lists
  Every list operation takes offset and limit; their syntax, defaults and
  maxima are left open, so the suite checks only what their names promise:
  limit is an upper bound, the offset just past the entries a walk through
  the pages has read gives nothing, and offset skips entries of the same
  order. The suite sends no offset or limit beyond what the list has shown
  to exist. sortby is checked only where the implementation declares its
  syntax (the fixture's conventions.sortby), and then paging applies to
  the sorted list.

  Scenario Outline: <op> returns at most limit entries
    When I call <op> for "<record>" with:
      | limit | 2 |
    Then the status is 200
    And the list has at most 2 entries
    And the list is not empty

    @E10 @E10.limit
    Examples: download log of a folder
      | op | record |
      | E10 | {records.folder} |

    @E15 @E15.limit
    Examples: user statistics of a channel
      | op | record |
      | E15 | {records.channel} |

    @E17 @E17.limit
    Examples: responses to a survey question
      | op | record |
      | E17 | {records.surveyQuestion} |

    @E18 @E18.limit
    Examples: responses to a poll question
      | op | record |
      | E18 | {records.pollQuestion} |

    @E20 @E20.limit
    Examples: students of a resource
      | op | record |
      | E20 | {records.resource} |

  Scenario Outline: <op> has nothing past its last entry
    When I page through <op> for "<record>"
    Then the pages held at least one entry
    And the list is empty

    @E10 @E10.offset
    Examples: download log of a folder
      | op | record |
      | E10 | {records.folder} |

    @E15 @E15.offset
    Examples: user statistics of a channel
      | op | record |
      | E15 | {records.channel} |

    @E17 @E17.offset
    Examples: responses to a survey question
      | op | record |
      | E17 | {records.surveyQuestion} |

    @E18 @E18.offset
    Examples: responses to a poll question
      | op | record |
      | E18 | {records.pollQuestion} |

    @E20 @E20.offset
    Examples: students of a resource
      | op | record |
      | E20 | {records.resource} |

  Scenario Outline: <op> skips offset entries of the same order
    When I page through <op> for "<record>"
    And I call <op> for "<record>" with:
      | offset | 1 |
      | limit  | 2 |
    Then the status is 200
    And the list equals entries 2 to 3 of the list saved as "all"

    @E10 @E10.offset-order
    Examples: download log of a folder
      | op | record |
      | E10 | {records.folder} |

    @E15 @E15.offset-order
    Examples: user statistics of a channel
      | op | record |
      | E15 | {records.channel} |

    @E17 @E17.offset-order
    Examples: responses to a survey question
      | op | record |
      | E17 | {records.surveyQuestion} |

    @E18 @E18.offset-order
    Examples: responses to a poll question
      | op | record |
      | E18 | {records.pollQuestion} |

    @E20 @E20.offset-order
    Examples: students of a resource
      | op | record |
      | E20 | {records.resource} |

  Scenario Outline: <op> refuses a <param> of <value>
    When I call <op> for "<record>" with:
      | <param> | <value> |
    Then the status is 400

    @E10 @E10.400.paging
    Examples: download log of a folder
      | op | record | param | value |
      | E10 | {records.folder} | offset | ten |
      | E10 | {records.folder} | limit | 2.5 |

    @E15 @E15.400.paging
    Examples: user statistics of a channel
      | op | record | param | value |
      | E15 | {records.channel} | offset | ten |
      | E15 | {records.channel} | limit | 2.5 |

    @E17 @E17.400.paging
    Examples: responses to a survey question
      | op | record | param | value |
      | E17 | {records.surveyQuestion} | offset | ten |
      | E17 | {records.surveyQuestion} | limit | 2.5 |

    @E18 @E18.400.paging
    Examples: responses to a poll question
      | op | record | param | value |
      | E18 | {records.pollQuestion} | offset | ten |
      | E18 | {records.pollQuestion} | limit | 2.5 |

    @E20 @E20.400.paging
    Examples: students of a resource
      | op | record | param | value |
      | E20 | {records.resource} | offset | ten |
      | E20 | {records.resource} | limit | 2.5 |

  Scenario Outline: <op> sorts by <field> <dir> when asked
    When I call <op> for "<record>" with:
      | sortby | {sortby.<field>.<dir>} |
    Then the status is 200
    And the entries are sorted by "<field>" <dir>

    @E10 @E10.sortby
    Examples: download log of a folder
      | op | record | field | dir |
      | E10 | {records.folder} | logDate | ascending |
      | E10 | {records.folder} | logDate | descending |

    @E15 @E15.sortby
    Examples: user statistics of a channel
      | op | record | field | dir |
      | E15 | {records.channel} | name | ascending |
      | E15 | {records.channel} | name | descending |

    @E17 @E17.sortby
    Examples: responses to a survey question
      | op | record | field | dir |
      | E17 | {records.surveyQuestion} | createdDate | ascending |
      | E17 | {records.surveyQuestion} | createdDate | descending |

    @E18 @E18.sortby
    Examples: responses to a poll question
      | op | record | field | dir |
      | E18 | {records.pollQuestion} | createdDate | ascending |
      | E18 | {records.pollQuestion} | createdDate | descending |

    @E20 @E20.sortby
    Examples: students of a resource
      | op | record | field | dir |
      | E20 | {records.resource} | userName | ascending |
      | E20 | {records.resource} | userName | descending |

  Scenario Outline: <op> pages after sorting by <field>
    When I page through <op> for "<record>" with:
      | sortby | {sortby.<field>.descending} |
    And I call <op> for "<record>" with:
      | sortby | {sortby.<field>.descending} |
      | offset | 1            |
      | limit  | 2            |
    Then the status is 200
    And the list equals entries 2 to 3 of the list saved as "all"

    @E10 @E10.sortby
    Examples: download log of a folder
      | op | record | field |
      | E10 | {records.folder} | logDate |

    @E15 @E15.sortby
    Examples: user statistics of a channel
      | op | record | field |
      | E15 | {records.channel} | name |

    @E17 @E17.sortby
    Examples: responses to a survey question
      | op | record | field |
      | E17 | {records.surveyQuestion} | createdDate |

    @E18 @E18.sortby
    Examples: responses to a poll question
      | op | record | field |
      | E18 | {records.pollQuestion} | createdDate |

    @E20 @E20.sortby
    Examples: students of a resource
      | op | record | field |
      | E20 | {records.resource} | userName |
