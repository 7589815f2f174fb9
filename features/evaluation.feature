Feature: Evaluation
  Staff read the questions of an evaluation and update an evaluation's
  question session.

  @E9 @E9.200
  Scenario: Reading a question of an evaluation
    When I call E9 with:
      | evaluationid | {records.evaluation}         |
      | id           | {records.evaluationQuestion} |
    Then the status is 200
    And the body is an object


  @E9 @E9.scope
  Scenario: A question of another evaluation is not served under this one
    When I call E9 with:
      | evaluationid | {records.evaluation}              |
      | id           | {records.otherEvaluationQuestion} |
    Then the status is 404

  @E9 @E9.404
  Scenario Outline: Reading a question is refused as not found when the <absent> does not exist
    When I call E9 with:
      | evaluationid | <evaluation> |
      | id           | <question>   |
    Then the status is 404

    Examples:
      | absent     | evaluation           | question                     |
      | question   | {records.evaluation} | {absent}                     |
      | evaluation | {absent}             | {records.evaluationQuestion} |

  @E9 @E9.400.uuid
  Scenario Outline: Reading a question named by a malformed <param> is refused
    When I call E9 with:
      | evaluationid | <evaluation> |
      | id           | <question>   |
    Then the status is 400

    Examples:
      | param        | evaluation           | question                     |
      | question id  | {records.evaluation} | not-a-uuid                   |
      | evaluationid | not-a-uuid           | {records.evaluationQuestion} |

  @E9 @E9.populate
  Scenario Outline: Reading a question accepts populate=<entity>
    When I call E9 with:
      | evaluationid | {records.evaluation}         |
      | id           | {records.evaluationQuestion} |
      | populate     | <entity>                     |
    Then the status is 200

    Examples:
      | entity              |
      | lastUpdatedUser     |
      | Response            |
      | ResponseWithCreator |

  @E9 @E9.populate-unknown
  Scenario: Reading a question refuses an unknown populate entity
    When I call E9 with:
      | evaluationid | {records.evaluation}         |
      | id           | {records.evaluationQuestion} |
      | populate     | Nonsense                     |
    Then the status is 400

  @ES @ES.200 @destructive
  Scenario: Updating an evaluation question session returns the evaluation
    When I call ES for "{records.evaluation}" with body:
      """
      {operations.ES.body}
      """
    Then the status is 200
    And the body is an object

  @ES @ES.question-inside @destructive
  Scenario Outline: A question's <field> of <value>, at its limit, is accepted
    When I update the evaluation session with a question whose "<field>" is <value>
    Then the status is 200

    Examples:
      | field           | value      |
      | mark            | 0          |
      | mark            | 10000      |
      | difficultyLevel | 0          |
      | difficultyLevel | 3          |
      | videoTimeStamp  | 0          |
      | videoTimeStamp  | 2147483647 |

  @ES @ES.question-outside
  Scenario Outline: A question's <field> of <value>, just beyond its limit, is refused
    When I update the evaluation session with a question whose "<field>" is <value>
    Then the status is 400
    When I call E9 with:
      | evaluationid | {records.evaluation}         |
      | id           | {records.evaluationQuestion} |
    Then the status is 200

    Examples:
      | field           | value      |
      | mark            | -0.01      |
      | mark            | 10000.01   |
      | difficultyLevel | -1         |
      | difficultyLevel | 4          |
      | videoTimeStamp  | -0.01      |
      | videoTimeStamp  | 2147483648 |
