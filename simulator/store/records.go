package store

import "time"

// The record types below have the field names and JSON forms of the
// interface specification. Optional fields that the simulator fills only on
// request (populate) carry omitempty/omitzero so that an unfilled field is
// absent rather than empty.

// SecondFactorResult is the answer of E1.
type SecondFactorResult struct {
	Status        string `json:"status"`
	CredentialID  string `json:"credentialId"`
	RequestID     string `json:"requestId"`
	StatusMessage string `json:"statusMessage"`
}

// PushResult is the answer of E2 and E3.
type PushResult struct {
	Status        string `json:"status"`
	TransactionID string `json:"transactionId"`
	CredentialID  string `json:"credentialId"`
	StatusMessage string `json:"statusMessage"`
}

// Faculty is a department record (E4).
type Faculty struct {
	DeptC             string    `json:"deptC"`
	DeptT1            string    `json:"deptT1"`
	DeptT2            string    `json:"deptT2"`
	FacC              string    `json:"facC"`
	DefunctF          string    `json:"defunctF"`
	SapDeptT2         string    `json:"sapDeptT2"`
	SapDeptC          string    `json:"sapDeptC"`
	SapDeptT1         string    `json:"sapDeptT1"`
	DeptClstrC        string    `json:"deptClstrC"`
	IsisAcadorgnunitN string    `json:"isisAcadorgnunitN"`
	DeptCreateD       time.Time `json:"deptCreateD"`
	DeptStD           time.Time `json:"deptStD"`
	DeptUpdD          time.Time `json:"deptUpdD"`
}

// BankFolder is a personal bank folder (E6). The creator's userID,
// userName and email are filled only with populate=Creator.
type BankFolder struct {
	ID             string    `json:"id"`
	Name           string    `json:"name"`
	Description    string    `json:"description"`
	Type           string    `json:"type"`
	Is2FaEnabled   bool      `json:"is2FaEnabled"`
	CreatedDate    time.Time `json:"createdDate"`
	CreatorID      string    `json:"creatorID"`
	UserID         string    `json:"userID,omitempty"`
	UserName       string    `json:"userName,omitempty"`
	Email          string    `json:"email,omitempty"`
	ReadonlyAccess bool      `json:"readonlyAccess"`
}

// Attendance is an attendance record (E7, E8).
type Attendance struct {
	ID           string    `json:"id"`
	Name         string    `json:"name"`
	ResourceID   string    `json:"resourceID"`
	Publish      bool      `json:"publish"`
	CreatedDate  time.Time `json:"createdDate"`
	CreatorID    string    `json:"creatorID"`
	PhotoURL     string    `json:"photoUrl"`
	UserName     string    `json:"userName"`
	UserID       string    `json:"userID"`
	UserMatricNo string    `json:"userMatricNo"`
	Email        string    `json:"email"`
	Description  string    `json:"description"`
	IsDefault    bool      `json:"isDefault"`
}

// Tag is a tag of an evaluation question.
type Tag struct {
	ID            string `json:"id"`
	TagName       string `json:"tagName"`
	TargetID      string `json:"targetId"`
	RootID        string `json:"rootId"`
	TagType       int32  `json:"tagType"`
	UserID        string `json:"userId"`
	OperationType string `json:"operationType"`
}

// Question is an evaluation question (E9).
type Question struct {
	ID               string    `json:"id"`
	ResourceID       string    `json:"resourceID"`
	ParentID         string    `json:"parentID"`
	Type             string    `json:"type"`
	ForAssessment    bool      `json:"forAssessment"`
	Text             string    `json:"text"`
	Solution         string    `json:"solution"`
	Publish          bool      `json:"publish"`
	Mark             float64   `json:"mark"`
	RequireRationale bool      `json:"requireRationale"`
	DifficultyLevel  int32     `json:"difficultyLevel"`
	VideoTimeStamp   float64   `json:"videoTimeStamp"`
	CreatedDate      time.Time `json:"createdDate"`
	LastUpdatedDate  time.Time `json:"lastUpdatedDate"`
	LastUpdatedBy    string    `json:"lastUpdatedBy"`
	Kutags           []Tag     `json:"kutags"`
}

// Evaluation is an evaluation (the session update of the unplaced
// operations returns it).
type Evaluation struct {
	ID                    string    `json:"id"`
	ParentID              string    `json:"parentID"`
	Name                  string    `json:"name"`
	StartDate             time.Time `json:"startDate"`
	EndDate               time.Time `json:"endDate"`
	InstructionalText     string    `json:"instructionalText"`
	EvaluationMethod      int32     `json:"evaluationMethod"`
	EvaluationType        int32     `json:"evaluationType"`
	MaximumScore          float64   `json:"maximumScore"`
	IsTask                bool      `json:"isTask"`
	RubricID              string    `json:"rubricID"`
	GroupIDs              []string  `json:"groupIDs"`
	Publish               bool      `json:"publish"`
	CreatorID             string    `json:"creatorID"`
	Updatedby             string    `json:"updatedby"`
	CreatedDate           time.Time `json:"createdDate"`
	UpdatedDate           time.Time `json:"updatedDate"`
	DisplayAnonymous      bool      `json:"displayAnonymous"`
	DisplayNothing        bool      `json:"displayNothing"`
	PublishResultDate     time.Time `json:"publishResultDate"`
	DisplayScore          bool      `json:"displayScore"`
	DisplayAverageScore   bool      `json:"displayAverageScore"`
	DisplayComment        bool      `json:"displayComment"`
	DisplayDetailsMapping bool      `json:"displayDetailsMapping"`
}

// Weightage is one grade item weight of a gradebook.
type Weightage struct {
	Key   string  `json:"key"`
	Value float64 `json:"value"`
}

// Grade is one row of a grading schema.
type Grade struct {
	LetterGrade string  `json:"letterGrade"`
	MaxMark     float64 `json:"maxMark"`
}

// Gradebook is the gradebook settings of a module.
type Gradebook struct {
	ResourceID    string      `json:"resourceID"`
	IDWeightage   []Weightage `json:"iD_Weightage"`
	GradingSchema []Grade     `json:"gradingSchema"`
}

// FileLog is a file activity log entry (E10).
type FileLog struct {
	Action       string    `json:"action"`
	TargetID     string    `json:"targetID"`
	UserGUID     string    `json:"userGuid"`
	UserID       string    `json:"userID"`
	Name         string    `json:"name"`
	UserMatricNo string    `json:"userMatricNo"`
	Email        string    `json:"email"`
	FileName     string    `json:"fileName"`
	FolderName   string    `json:"folderName"`
	FolderID     string    `json:"folderID"`
	LogDate      time.Time `json:"logDate"`
}

// Annotation is a file annotation (E11).
type Annotation struct {
	AnnotationID string `json:"annotationId"`
	DocumentID   string `json:"documentId"`
	XfdfString   string `json:"xfdfString"`
}

// WeblinkLog is a weblink view log entry (E12).
type WeblinkLog struct {
	TargetID            string    `json:"targetID"`
	LogDate             time.Time `json:"logDate"`
	IP                  string    `json:"ip"`
	UserGUID            string    `json:"userGuid"`
	CreatorUserMatricNo string    `json:"creatorUserMatricNo"`
	CreatorUserID       string    `json:"creatorUserID"`
	CreatorName         string    `json:"creatorName"`
	CreatorEmail        string    `json:"creatorEmail"`
}

// MediaLog is a media log entry (E13).
type MediaLog struct {
	Title      string    `json:"title"`
	UserID     string    `json:"userID"`
	Name       string    `json:"name"`
	Email      string    `json:"email"`
	Department string    `json:"department"`
	LogDate    time.Time `json:"logDate"`
}

// ChannelUser is a channel user statistics entry (E15).
type ChannelUser struct {
	Name          string  `json:"name"`
	MatrixNo      string  `json:"matrixNo"`
	PhotoURL      string  `json:"photoUrl"`
	Plays         int32   `json:"plays"`
	Downloads     int32   `json:"downloads"`
	Comments      int32   `json:"comments"`
	MinutesViewed float64 `json:"minutesViewed"`
}

// CaptureSession is a lecture-capture session (E16).
type CaptureSession struct {
	SessionID   string    `json:"sessionID"`
	URLID       string    `json:"urlID"`
	MP4URL      string    `json:"mP4Url"`
	MP3URL      string    `json:"mP3Url"`
	ViewerURL   string    `json:"viewerURL"`
	SessionName string    `json:"sessionName"`
	StartTime   time.Time `json:"startTime"`
	EndTime     time.Time `json:"endTime"`
	Duration    float64   `json:"duration"`
}

// SurveyResponse is a survey response (E17). userId, userName and
// userMatrixNo are filled only with populate=Creator.
type SurveyResponse struct {
	ID           string    `json:"id"`
	CreatedDate  time.Time `json:"createdDate"`
	CreatorID    string    `json:"creatorID"`
	UserID       string    `json:"userId,omitempty"`
	UserName     string    `json:"userName,omitempty"`
	UserMatrixNo string    `json:"userMatrixNo,omitempty"`
	QuestionID   string    `json:"questionID"`
	Options      []int32   `json:"options"`
	Text         string    `json:"text"`
	Tof          bool      `json:"tof"`
	Blank        []string  `json:"blank"`
}

// PollResponse is a poll response (E18, E19). photo is filled only with
// populate=photo on E18.
type PollResponse struct {
	ID              string    `json:"id"`
	QuestionID      string    `json:"questionID"`
	CreatedDate     time.Time `json:"createdDate"`
	CreatorID       string    `json:"creatorId"`
	UserID          string    `json:"userId"`
	UserName        string    `json:"userName"`
	UserMatrixNo    string    `json:"userMatrixNo"`
	Photo           string    `json:"photo,omitempty"`
	SelectedOptions []int32   `json:"selectedOptions"`
	Text            string    `json:"text"`
}

// Student is an accessible-user entry (E20). photo is filled only with
// populate=photo.
type Student struct {
	ID            string `json:"id"`
	UserID        string `json:"userID"`
	UserName      string `json:"userName"`
	UserMatricNo  string `json:"userMatricNo"`
	OfficialEmail string `json:"officialEmail"`
	Email         string `json:"email"`
	UserFaculty   string `json:"userFaculty"`
	LoginDomain   string `json:"loginDomain"`
	Photo         string `json:"photo,omitempty"`
}

// Target is an ancestor of a notification's target.
type Target struct {
	ID             string `json:"id"`
	Name           string `json:"name"`
	TypeID         int32  `json:"typeID"`
	TypeName       string `json:"typeName"`
	IsResourceType bool   `json:"isResourceType"`
}

// Notification is a notification. ancestor is filled only with
// populate=ancestor.
type Notification struct {
	ID            int64     `json:"id"`
	TargetID      string    `json:"targetID"`
	NotifyGroupID string    `json:"notifyGroupId"`
	Type          string    `json:"type"`
	RecordDate    time.Time `json:"recordDate"`
	NotifyMessage string    `json:"notifyMessage"`
	NotifyStatus  int32     `json:"notifyStatus"`
	Ancestor      []Target  `json:"ancestor,omitempty"`
}

// Notification read states. Stated again here on purpose, apart from
// internal/rules (the checkers' copy): the simulator is the reference
// implementation the checkers are tested against.
const (
	Unread int32 = 10
	Read   int32 = 11
)

// QuizSection is a quiz section.
type QuizSection struct {
	ID                       string `json:"id"`
	AssessmentID             string `json:"assessmentId"`
	Name                     string `json:"name"`
	Description              string `json:"description"`
	DisplayQuestionMark      bool   `json:"displayQuestionMark"`
	DisplayedRandomQuestions int32  `json:"displayedRandomQuestions"`
	RandomizeQuestions       bool   `json:"randomizeQuestions"`
	RandomizeOptions         bool   `json:"randomizeOptions"`
	RequireRational          bool   `json:"requireRational"`
}
