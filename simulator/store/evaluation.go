package store

import (
	"slices"
	"time"
)

// Question returns a question of an evaluation. It fails with ErrNotFound
// when either is absent or the question belongs to another evaluation.
func (s *Store) Question(evaluationID, id string) (Question, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.w.Evaluations[evaluationID]; !ok {
		return Question{}, notFound("evaluation " + evaluationID + " does not exist")
	}
	q, ok := s.w.Questions[id]
	if !ok || q.ParentID != evaluationID {
		return Question{}, notFound("evaluation " + evaluationID + " has no question " + id)
	}
	return copyQuestion(q), nil
}

// Evaluation returns an evaluation.
func (s *Store) Evaluation(id string) (Evaluation, bool) {
	return lookup(s, func(w *World) map[string]Evaluation { return w.Evaluations }, id, copyEvaluation)
}

// EvaluationPatch is a partial evaluation: nil fields keep their value.
// The caller has checked ranges and enums.
type EvaluationPatch struct {
	Name                  *string
	StartDate, EndDate    *time.Time
	InstructionalText     *string
	EvaluationMethod      *int32
	EvaluationType        *int32
	MaximumScore          *float64
	Publish               *bool
	DisplayAnonymous      *bool
	DisplayNothing        *bool
	PublishResultDate     *time.Time
	DisplayScore          *bool
	DisplayAverageScore   *bool
	DisplayComment        *bool
	DisplayDetailsMapping *bool
	Questions             []QuestionPatch
}

// QuestionPatch is a partial evaluation question, named by ID.
type QuestionPatch struct {
	ID               string
	Text             *string
	Solution         *string
	Publish          *bool
	Mark             *float64
	RequireRationale *bool
	DifficultyLevel  *int32
	VideoTimeStamp   *float64
	ForAssessment    *bool
}

// UpdateEvaluation applies p to an evaluation and its questions, all or
// nothing, and returns the whole evaluation.
func (s *Store) UpdateEvaluation(id string, p EvaluationPatch, by User) (Evaluation, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.w.Evaluations[id]
	if !ok {
		return Evaluation{}, unknownID("evaluation " + id + " does not exist")
	}
	for _, qp := range p.Questions {
		if q, ok := s.w.Questions[qp.ID]; !ok || q.ParentID != id {
			return Evaluation{}, invalid("evaluation " + id + " has no question " + qp.ID)
		}
	}
	start, end := e.StartDate, e.EndDate
	set(&start, p.StartDate)
	set(&end, p.EndDate)
	if end.Before(start) {
		return Evaluation{}, invalid("endDate " + end.Format(time.RFC3339) + " is before startDate " + start.Format(time.RFC3339))
	}
	now := s.now()
	set(&e.Name, p.Name)
	e.StartDate, e.EndDate = start, end
	set(&e.InstructionalText, p.InstructionalText)
	set(&e.EvaluationMethod, p.EvaluationMethod)
	set(&e.EvaluationType, p.EvaluationType)
	set(&e.MaximumScore, p.MaximumScore)
	set(&e.Publish, p.Publish)
	set(&e.DisplayAnonymous, p.DisplayAnonymous)
	set(&e.DisplayNothing, p.DisplayNothing)
	set(&e.PublishResultDate, p.PublishResultDate)
	set(&e.DisplayScore, p.DisplayScore)
	set(&e.DisplayAverageScore, p.DisplayAverageScore)
	set(&e.DisplayComment, p.DisplayComment)
	set(&e.DisplayDetailsMapping, p.DisplayDetailsMapping)
	e.Updatedby = by.ID
	e.UpdatedDate = now
	s.w.Evaluations[id] = e
	for _, qp := range p.Questions {
		q := s.w.Questions[qp.ID]
		set(&q.Text, qp.Text)
		set(&q.Solution, qp.Solution)
		set(&q.Publish, qp.Publish)
		set(&q.Mark, qp.Mark)
		set(&q.RequireRationale, qp.RequireRationale)
		set(&q.DifficultyLevel, qp.DifficultyLevel)
		set(&q.VideoTimeStamp, qp.VideoTimeStamp)
		set(&q.ForAssessment, qp.ForAssessment)
		q.LastUpdatedBy = by.UserID
		q.LastUpdatedDate = now
		s.w.Questions[qp.ID] = q
	}
	return copyEvaluation(e), nil
}

func set[T any](dst *T, src *T) {
	if src != nil {
		*dst = *src
	}
}

func copyQuestion(q Question) Question {
	q.Kutags = slices.Clone(q.Kutags)
	return q
}

func copyEvaluation(e Evaluation) Evaluation {
	e.GroupIDs = slices.Clone(e.GroupIDs)
	return e
}

// QuestionAnywhere returns a question by its id alone, whatever its
// evaluation (a defect that ignores the evaluation uses it).
func (s *Store) QuestionAnywhere(id string) (Question, bool) {
	return lookup(s, func(w *World) map[string]Question { return w.Questions }, id, copyQuestion)
}

// SiblingQuestion returns another question of q's evaluation, the next by
// id (a defect that answers the wrong question uses it).
func (s *Store) SiblingQuestion(q Question) (Question, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var best, first *Question
	for id, o := range s.w.Questions {
		if o.ParentID != q.ParentID || id == q.ID {
			continue
		}
		o := o
		if first == nil || id < first.ID {
			first = &o
		}
		if id > q.ID && (best == nil || id < best.ID) {
			best = &o
		}
	}
	if best == nil {
		best = first
	}
	if best == nil {
		return Question{}, false
	}
	return copyQuestion(*best), true
}
