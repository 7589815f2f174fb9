Feature: Gradebook settings
  Staff set the weightage of each grade item of a module and the grading
  schema. The weightages of all grade items of a module may total at most
  100: an update is judged by the module's total after it, and a refused
  update changes nothing.

  @GB @GB.200 @GB.total-100 @destructive
  Scenario: Weightages totalling exactly 100 are accepted
    When I set the weightages of every grade item of the module to total 100
    Then the status is 200
    And the body is an object

  @GB @GB.echo @destructive
  Scenario: The settings answered are those after the update
    When I set the weightages of every grade item of the module to total 100
    Then the status is 200
    And the weightages returned are those set
    When I set the weightages of every grade item of the module to total 90
    Then the status is 200
    And the weightages returned are those set

  @GB @GB.module @destructive
  Scenario: The settings answered are those of the module updated
    When I set the weightages of every grade item of the module to total 100
    Then the status is 200
    And the field "resourceID" is "{records.gradebookModule.id}"

  @GB @GB.total-over @destructive
  Scenario: Weightages totalling 100.01 are refused
    When I set the weightages of every grade item of the module to total 100.01
    Then the status is 400

  @GB @GB.per-module @destructive
  Scenario: An update of one grade item is refused when the module would total over 100
    When I set the weightages of every grade item of the module to total 100
    Then the status is 200
    When I raise the weightage of grade item 1 alone by 1
    Then the update is refused with 400, or the weightages it returns total at most 100

  @GB @GB.unchanged @destructive
  Scenario: Refused updates leave the earlier weightages in force
    When I set the weightages of every grade item of the module to total 100
    Then the status is 200
    When I raise the weightage of grade item 1 alone by 100
    Then the status is 400
    When I raise the weightage of grade item 1 alone by -1, in an update whose grading schema has an entry without maxMark
    Then the update is refused, or else its weightage stands
    When I raise the weightage of grade item 2 alone by 0
    Then the earlier refusal changed nothing: the status is 200
    And grade item 1 keeps its earlier weightage

  @GB @GB.404
  Scenario: Updating the settings of a module that does not exist is refused as not found
    When I call GB for "{absent}" with body:
      """
      {"iD_Weightage": [], "gradingSchema": [{"letterGrade": "A", "maxMark": 100}]}
      """
    Then the status is 404

  @GB @GB.400.uuid
  Scenario: Updating the settings of a malformed module id is refused
    When I call GB for "not-a-uuid" with body:
      """
      {"iD_Weightage": [], "gradingSchema": [{"letterGrade": "A", "maxMark": 100}]}
      """
    Then the status is 400

  @GB @GB.400.json
  Scenario: Updating gradebook settings with a broken body is refused
    When I call GB for "{records.gradebookModule.id}" with body:
      """
      {"iD_Weightage": [
      """
    Then the status is 400

  @GB @GB.400.required
  Scenario Outline: Gradebook settings without <field> are refused
    When I call GB for "{records.gradebookModule.id}" with body:
      """
      <body>
      """
    Then the status is 400

    Examples:
      | field         | body                                                                 |
      | iD_Weightage  | {"gradingSchema": [{"letterGrade": "A", "maxMark": 100}]}            |
      | gradingSchema | {"iD_Weightage": [{"key": "{records.gradebookModule.gradeItems.0}", "value": 10}]} |

  @GB @GB.400.schema
  Scenario Outline: A grading schema entry without <member> is refused
    When I call GB for "{records.gradebookModule.id}" with body:
      """
      {"iD_Weightage": [], "gradingSchema": [<entry>]}
      """
    Then the status is 400

    Examples:
      | member      | entry                |
      | letterGrade | {"maxMark": 100}     |
      | maxMark     | {"letterGrade": "A"} |
